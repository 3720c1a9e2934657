"""Learning: the `learned` bot's policy and `jamaica train` (numpy only, the `rl` extra).

- `features`: what the policy reads — a fixed-size, seat-relative vector of a player's view, and
  the output row of each legal action;
- `policy`: the network (`Policy`), its checkpoint format (`.npz`, float16) and the shipped
  weights (`learned.npz`, package data beside it);
- `trainer`: the policy-gradient loop and the `jamaica train` command.

The bot itself is `jamaica.bots.learned.LearnedBot` (`make_bot("learned")`). The arrows run one
way: `features` and `policy` import only the rules; the bot imports them; the trainer imports the
bots (its opponents) and them.
"""
