"""A deep-learning baseline in JAX: `jamaica train --algo ppo` (the `jax` extra) trains the
network the `deep` bot plays.

The algorithm: **behaviour cloning, then PPO against a pool of the project's bots** (the recipe
of AlphaStar and OpenAI Five, scaled down to a 2-core CPU).

1. *Cloning a teacher* (`medium` by default). Supervised learning is the cheapest signal there
   is: a decision of `medium` costs about half a millisecond and labels every question, where a
   policy gradient learns from one noisy result per game (the dice decide much of a Jamaica game).
   Measured: 1,500 games of `medium` (198,000 decisions) and 10 epochs, 6 minutes, give a policy
   that wins 48% heads-up against `greedy` and 41% against `medium` (its teacher wins 68% against
   `greedy`): a warm start, not the goal.
2. *PPO* (clipped surrogate, generalized advantage estimates with γ = 1, λ = 0.95, a value head
   warm-started on the teacher's games' results, a small entropy bonus) against `greedy`,
   `medium` and the learner's own recent past, to go past the teacher on the result itself.
   Measured: 18,240 more games (36 minutes) bring it to 69% against `greedy` and 65% against
   `medium` (300 games each, fresh seeds; docs/research.md).

Tried and left out: DAgger (the teacher asked on the learner's own states, 2 rounds of 300
games) moved the cloned policy by no more than the duels' noise.

Why not an AlphaZero-style search with a learned prior and value: every iteration of a search in
Jamaica must sample the hidden cards and the dice, the engine plays some thousands of moves per
second in Python, and the project's `hard` bot already is such a search (ISMCTS, ~0.1 s a
question); a learned prior would need many self-play games of that search to train, out of reach
of a 2-core machine in an hour, and the bot would think for as long as `hard` does. A network that
answers in a tenth of a millisecond is the baseline a researcher can start from.

The network is a two-layer `tanh` MLP over the seat-relative, six-seat features of
`jamaica.learn.features` (one size for 2 to 6 players, `attack K` named by K's seat from the
attacker), with a masked policy head (one logit per player action) and a value head. The games are
played through the engine directly with the numpy copy of the network (`jamaica.learn.deep`), the
gradients computed with JAX (`network`, `losses`), on a GPU when JAX finds one.

Modules: `network` (Flax), `losses` (the two losses, jitted steps), `games` (teacher and learner
games, duels), `train` (the run, checkpoints and curve), `command` (the CLI), `evaluate` (the
heads-up table with Wilson intervals, numpy only).
"""
