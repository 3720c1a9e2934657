"""The `jamaica` command."""

from __future__ import annotations

import argparse
import gettext
import os
import sys
from collections.abc import Sequence
from dataclasses import replace
from importlib import resources
from typing import TYPE_CHECKING

from .i18n import DOMAIN, LANGUAGES, Words, from_environment
from .rules import EDITIONS, Config
from .rules.phrases import N_, P_

if TYPE_CHECKING:
    from .lab.distributed import Cluster
    from .tui.app import JamaicaApp

# argparse's own words (its gettext messages), translated in our catalog: `argparse_words()`
# makes our domain the program's gettext domain, where argparse looks its words up.
ARGPARSE: tuple[str | tuple[str, str], ...] = (
    N_("usage: "), N_("options"), N_("positional arguments"),
    N_("show this help message and exit"), N_("%(prog)s: error: %(message)s\n"),
    N_("the following arguments are required: %s"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("argument %(argument_name)s: %(message)s"), N_("unrecognized arguments: %s"),
    N_("expected one argument"), N_("expected at least one argument"),
    N_("expected at most one argument"), N_("invalid %(type)s value: %(value)r"),
    N_("not allowed with argument %s"), N_("one of the arguments %s is required"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("ignored explicit argument %r"), N_("can't open '%(filename)s': %(error)s"),
    P_("expected %s argument", "expected %s arguments"),
)  # fmt: skip


def argparse_words() -> None:
    """Let argparse speak the environment's language: its messages go through the standard
    `gettext` functions of the program's domain (Python's argparse howto, "How to translate the
    argparse output"); we bind that domain to our catalogs, which translate argparse's few
    messages (`ARGPARSE`). gettext picks the language from `LANGUAGE`, `LC_ALL`, `LC_MESSAGES`
    and `LANG`, as `i18n.from_environment` does; English has no catalog, so it stays argparse's
    own text, byte for byte."""
    locale = resources.files("jamaica.i18n").joinpath("locale")
    gettext.bindtextdomain(DOMAIN, str(locale))
    gettext.textdomain(DOMAIN)


def _config_args(p: argparse.ArgumentParser, _: Words) -> None:
    p.add_argument(
        "--players",
        type=int,
        default=None,
        dest="players_given",
        help=_("2 to 6 (default 4; for a tournament, the number of bots)"),
    )
    p.add_argument("--edition", choices=EDITIONS, default="2021", help=_("rules edition"))
    g = p.add_mutually_exclusive_group()
    g.add_argument(
        "--ghost",
        dest="ghost",
        action="store_true",
        default=None,
        help=_("play with the Ghost Ship (always on with 2 players)"),
    )
    g.add_argument("--no-ghost", dest="ghost", action="store_false")
    p.add_argument("--max-rounds", type=int, default=100,
                   help=_("safety limit (R7; default 100)"))  # fmt: skip


def _lab_args(p: argparse.ArgumentParser, games: int, _: Words) -> None:
    p.add_argument("--games", type=int, default=games,
                   help=_("games to play (default {games})", games=games))  # fmt: skip
    _ray_args(p, _)
    p.add_argument("--seed", type=int, default=1,
                   help=_("the games' seed (default 1): same seed, same games"))  # fmt: skip
    p.add_argument("--out", help=_("per-game results: FILE.csv or FILE.json"))
    p.add_argument("--plot", help=_("a figure: FILE.png, FILE.svg or FILE.pdf"))


def _ray_args(p: argparse.ArgumentParser, _: Words) -> None:
    p.add_argument("--workers", type=int, default=None,
                   help=_("games played at once (default: every core with the ray extra, else "
                          "1); more than 1 starts a local Ray cluster"))  # fmt: skip
    p.add_argument("--ray", metavar="ADDRESS", default=None,
                   help=_("play the games on Ray: local (a cluster of --workers CPUs "
                          "started here), auto (the running cluster) or its address "
                          "{address}", address="HOST:PORT"))  # fmt: skip


def _cluster(ns: argparse.Namespace) -> Cluster:
    from .lab.distributed import Cluster

    return Cluster.parse(ns.ray, ns.workers)


def _config(ns: argparse.Namespace, players: int | None = None) -> Config:
    n = ns.players_given or players or 4
    return Config(players=n, edition=ns.edition, ghost_ship=ns.ghost, max_rounds=ns.max_rounds)


def _lang(ns: argparse.Namespace) -> str:
    """The language of the terminal app: `--lang`, else the environment's."""
    return getattr(ns, "lang", None) or from_environment()


def _terminal(ns: argparse.Namespace) -> int:
    from pathlib import Path

    from .session import GameSession

    if ns.command == "replay":
        from .tui.replay import replay_app

        replay_app(GameSession.load(Path(ns.file)), _lang(ns), ns.analyse, ns.budget).run()
        return 0
    app = play_app(ns)
    app.run()
    print(app.farewell())
    return 0


def play_app(ns: argparse.Namespace) -> JamaicaApp:
    """The terminal app for `jamaica play`, every option checked first: a ValueError (one line,
    exit code 2) for a bad delay, save file, seat, name list or table, or a bad file to resume.
    A file already at `--save` is never overwritten without asking: an unfinished game there is
    offered to resume; anything else is kept and the new game goes to a free name beside it."""
    import math
    from pathlib import Path

    from .session import GameSession, check_writable, free_save_path, reproducible
    from .tui.app import JamaicaApp, TableChoice

    lang = _lang(ns)
    _ = Words(lang)
    if not math.isfinite(ns.delay) or not 0 <= ns.delay <= 10:
        raise ValueError(_("--delay must be a number of seconds from 0 to 10, not {delay}",
                           delay=f"{ns.delay:g}"))  # fmt: skip
    if ns.save is not None and not ns.save.strip():  # it silently meant the default file
        raise ValueError(_("--save needs a file name (without --save: jamaica-save.json)"))
    if ns.resume is not None and not ns.resume.strip():  # it silently started a new game
        raise ValueError(_("--resume needs the file of the game to resume"))
    if ns.resume:
        for flag, value in (("--seats", ns.seats), ("--names", ns.names), ("--seed", ns.seed),
                            ("--players", ns.players_given)):  # fmt: skip
            if value not in (None, ""):
                raise ValueError(_("{flag} cannot be used with --resume: the game is in the file",
                                   flag=flag))  # fmt: skip
        session = GameSession.load(Path(ns.resume))
        if ns.save is not None:  # go on in another file; the one resumed is left as it was
            session.path = Path(ns.save)
        assert session.path is not None
        check_writable(session.path)
        note = ""
        for i, seat in enumerate(session.seats):
            if seat.bot is not None and reproducible(seat.bot) != seat.bot:
                session.seats[i] = replace(seat, bot=reproducible(seat.bot))
                note += (
                    _(
                        "Seat {k}'s bot {bot} now plays {now}, so that the game resumes exactly.",
                        k=i + 1,
                        bot=seat.bot,
                        now=session.seats[i].bot,
                    )
                    + " "
                )
        app = JamaicaApp(session, delay=ns.delay, lang=lang)
        if note:
            app.outcome.notes.append(note.strip())
        return app
    names = tuple(n.strip() for n in ns.names.split(",")) if ns.names is not None else ()
    if names and not all(names):  # "", ",", "A,,B" silently opened the setup screen
        raise ValueError(_("--names needs a name for each seat it lists, comma-separated, "
                           "not {names}", names=repr(ns.names)))  # fmt: skip
    if ns.seats is not None and not ns.seats.strip():
        raise ValueError(_("--seats needs one player per seat, e.g. human,greedy,greedy"))
    kinds = tuple(k.strip() for k in ns.seats.split(",")) if ns.seats else ()
    players = ns.players_given or len(kinds) or (len(names) if 2 <= len(names) <= 6 else 4)
    if len(names) > players:
        raise ValueError(_("--names gives {names} names for {players} players",
                           names=len(names), players=players))  # fmt: skip
    table = TableChoice(players, ns.edition, ns.ghost, ns.max_rounds, names, kinds)
    table.config()
    if kinds:
        if len(kinds) != players:
            raise ValueError(_("--seats gives {seats} seats for {players} players",
                               seats=len(kinds), players=players))  # fmt: skip
        for i, seat in enumerate(table.seats()):
            if seat.bot is not None and reproducible(seat.bot) != seat.bot:
                raise ValueError(_(
                    "seat {k} ({bot}): a bot given seconds plays differently on each run, so a "
                    "saved game would not resume exactly; give it iterations instead, e.g. "
                    "{spec}", k=i + 1, bot=repr(seat.bot),
                    spec=reproducible(seat.bot)))  # fmt: skip
    save = Path(ns.save or "jamaica-save.json")
    check_writable(save)
    found = None
    note = ""
    if save.exists() or save.is_symlink():
        try:
            other = GameSession.load(save)
        except ValueError:
            other = None
        if other is not None and not other.state.is_terminal():
            found = other
        else:
            new = free_save_path(save)
            if other is not None:
                note = _("{save} holds a finished game and is kept: this game will be saved "
                         "in {new}.", save=save, new=new)  # fmt: skip
            else:
                note = _("{save} holds something that is not a game and is kept: this game "
                         "will be saved in {new}.", save=save, new=new)  # fmt: skip
            save = new
    return JamaicaApp(seed=ns.seed, save_path=save, delay=ns.delay, table=table,
                      start=bool(kinds), found=found, note=note, lang=lang)  # fmt: skip


def build_parser(lang: str | None = None) -> argparse.ArgumentParser:
    """The command's parser, its help in `lang` (default: the environment's language)."""
    _ = Words(lang or from_environment())
    parser = argparse.ArgumentParser(prog="jamaica", description=_("Jamaica, the pirate race."))
    sub = parser.add_subparsers(dest="command", required=True)
    demo = sub.add_parser("demo", help=_("watch a whole game between bots, play by play"))
    _config_args(demo, _)
    demo.add_argument("--seed", type=int, default=1,
                      help=_("the game's seed (default 1): same seed, same game"))  # fmt: skip
    demo.add_argument("--bot", default="greedy", help=_("the bot in every seat (default greedy)"))
    demo.add_argument(
        "--spectator",
        action="store_true",
        help=_("show public events only (no hands, no face-down values)"),
    )
    bench = sub.add_parser("bench", help=_("measure the engine's speed on one core"))
    bench.add_argument(
        "--games", type=int, default=None, help=_("random games (1000; --hints: 60)")
    )
    bench.add_argument("--players", type=int, default=4)
    bench.add_argument("--edition", choices=EDITIONS, default="2021")
    bench.add_argument("--seed", type=int, default=1)
    bench.add_argument("--engine-only", action="store_true", help=_("skip the bots' figures"))
    bench.add_argument(
        "--hints",
        action="store_true",
        help=_(
            "instead: the worst work and time, per kind of question, of what the server computes"
            " for an update (view, question, hints), over the worst cases built and random games"
        ),
    )
    tour = sub.add_parser("tournament", help=_("pit bots against each other over many games"))
    _config_args(tour, _)
    tour.add_argument(
        "--bots",
        required=True,
        help=_(
            "one bot per seat, comma-separated, e.g. ismcts,greedy,greedy,greedy (options: {spec})",
            spec="ismcts:seconds=0.5:rollout=greedy",
        ),
    )
    _lab_args(tour, 400, _)
    trn = sub.add_parser("train", help=_("train the learned bot's policy (numpy), learning curve"))
    trn.add_argument(
        "--minutes", type=float, default=20.0, help=_("wall-clock budget (default 20)")
    )
    trn.add_argument(
        "--games", type=int, default=1_000_000, help=_("or stop after this many games")
    )
    trn.add_argument(
        "--opponents", default=None, help=_("bot specs or self, one per game")
    )
    trn.add_argument("--players", type=int, default=2, help=_("players per game (default 2)"))
    trn.add_argument("--seed", type=int, default=1)
    trn.add_argument("--out", default=None,
                     help=_("the weights (default learned.npz); ppo: a folder (default ppo-run)"))
    trn.add_argument("--plot", default=None, help=_("draw the learning curve to this PNG"))
    trn.add_argument("--init", default=None, help=_("start from these weights (.npz)"))
    trn.add_argument("--algo", choices=("reinforce", "ppo"), default="reinforce",
                     help=_("reinforce: the learned bot, numpy (default); ppo: the deep bot, JAX "
                            "(the jax extra), cloning --teacher then PPO, --out a folder"))
    trn.add_argument("--teacher", default="medium", help=_("ppo: the bot cloned first"))
    trn.add_argument("--export", default=None, help=_("ppo: copy the best weights here"))
    trn.add_argument("--workers", type=int, default=None,
                     help=_("ppo: play each update's games on a local Ray cluster of this many "
                            "CPUs"))  # fmt: skip
    trn.add_argument("--ray", metavar="ADDRESS", default=None,
                     help=_("ppo: play each update's games on Ray: local, auto (the running "
                            "cluster) or its address {address}", address="HOST:PORT"))  # fmt: skip
    sim = sub.add_parser("simulate", help=_("design statistics over many games of one bot"))
    _config_args(sim, _)
    sim.add_argument("--bot", default="greedy", help=_("the bot in every seat (default greedy)"))
    _lab_args(sim, 1000, _)
    lab = sub.add_parser("lab", help=_("research tables: the baseline and strength tables, and "
                         "master's fitted value"))  # fmt: skip
    labsub = lab.add_subparsers(dest="lab_command", required=True,
                                metavar="{baseline,strength,fit-value}")  # fmt: skip
    base = labsub.add_parser("baseline", help=_("every bot against a fixed pool over a fixed "
                             "protocol: a Markdown table with Wilson intervals"))  # fmt: skip
    base.add_argument("--quick", action="store_true", help=_("4 games per cell (a test)"))
    base.add_argument("--games", type=int, default=None,
                      help=_("games per cell (default 400: intervals of about 5 "
                             "points)"))  # fmt: skip
    base.add_argument("--seed", type=int, default=2027, help=_("the protocol's seed (2027)"))
    base.add_argument("--rows", default=None,
                      help=_("only these rows, comma-separated, each with @N for its own games "
                             "per cell (e.g. {rows})", rows="random,hard@40"))  # fmt: skip
    _ray_args(base, _)
    strong = labsub.add_parser("strength", help=_("the strength table of issue 28: the levels, "
                               "greedy, random, learned, deep and OpenSpiel's ISMCTS against hard, "
                               "greedy and OpenSpiel's ISMCTS, with Wilson intervals and the CPU "
                               "per decision"))  # fmt: skip
    strong.add_argument("--quick", action="store_true",
                        help=_("2 games per cell, OpenSpiel at 2 and 20 simulations (a "
                               "test)"))  # fmt: skip
    strong.add_argument("--games", type=int, default=None,
                        help=_("games per cell (default 100; 300 for master, 1,000 for hard "
                               "against greedy)"))  # fmt: skip
    strong.add_argument("--seed", type=int, default=2028, help=_("the deals' seed (2028)"))
    strong.add_argument("--rows", default=None,
                        help=_("only these rows, comma-separated: {rows}, or bot specs",
                               rows="easy,medium,hard,master,greedy,random,learned,deep,spiel,"
                               "spiel-x10,master-seer"))  # fmt: skip
    strong.add_argument("--pairings", default=None,
                        help=_("only these columns, comma-separated: {pairings}",
                               pairings="hard,greedy,hard-x3,spiel,spiel-x10"))  # fmt: skip
    strong.add_argument("--spiel-simulations", type=int, default=None,
                        help=_("OpenSpiel's simulations per decision for the same CPU as master "
                               "(default {same}; ten times as many for 10x)",
                               same=115))  # fmt: skip
    strong.add_argument("--calibrate", action="store_true",
                        help=_("first measure those simulations in 4 games of master against "
                               "OpenSpiel's ISMCTS"))  # fmt: skip
    _ray_args(strong, _)
    value = labsub.add_parser("fit-value", help=_("fit master's value to the winners of "
                              "self-play games, and report its held-out log-loss"))  # fmt: skip
    value.add_argument("--games", type=int, default=6000,
                       help=_("self-play games (default 6000)"))  # fmt: skip
    value.add_argument("--seed", type=int, default=1, help=_("the games' seed (1)"))
    value.add_argument("--bot", default="rules:knowledge=expert:slips=0.03",
                       help=_("the bot in every seat, or several, comma-separated, each seat's "
                              "drawn from them (default: the expert's rules of thumb, with "
                              "slips)"))  # fmt: skip
    value.add_argument("--out", default=None,
                       help=_("write the weights there (the shipped ones: "
                              "src/jamaica/bots/value.json)"))  # fmt: skip
    _ray_args(value, _)
    bray = sub.add_parser("bench-ray", help=_("games per second on 1 and on 2 Ray workers, "
                          "run in turn, and their ratio"))  # fmt: skip
    bray.add_argument("--games", type=int, default=40, help=_("games per run (default 40)"))
    bray.add_argument("--repeat", type=int, default=3, help=_("runs of each (default 3)"))
    bray.add_argument("--seed", type=int, default=1)
    bray.add_argument("--bot", default="greedy", help=_("the bot in every seat (default greedy)"))
    i18n = sub.add_parser("i18n", help=_("the translations' catalogs (Babel): extract, compile"))
    i18n.add_argument("step", choices=("extract", "compile"),
                      help=_("extract: every marked message into the template and each language's "
                           ".po; compile: each .po into the .mo the program reads"))  # fmt: skip
    rb = sub.add_parser(
        "rate-bots", help=_("the bot levels on the players' rating scale (openskill)")
    )
    rb.add_argument("--games", type=int, default=120, help=_("games per edition (default 120)"))
    rb.add_argument("--seed", type=int, default=1)
    rb.add_argument(
        "--editions", default=",".join(EDITIONS), help=_("comma-separated (default both)")
    )
    rb.add_argument(
        "--levels",
        default="random,easy,rules,greedy,medium,hard,master",
        help=_("the bots rated, comma-separated (default: the levels and the anchors)"),
    )
    rb.add_argument("--workers", type=int, default=1, help=_("processes (default 1)"))
    rb.add_argument(
        "--out", help=_("the ratings as JSON (as shipped in jamaica/ratings/bots.json)")
    )
    play = sub.add_parser("play", help=_("play in the terminal, against bots or at one keyboard"))
    _config_args(play, _)
    play.add_argument(
        "--seats", help=_("skip the setup screen: one per seat, e.g. human,greedy,greedy")
    )
    play.add_argument("--names", default=None, help=_("players' names, comma-separated"))
    play.add_argument("--seed", type=int, default=None)
    play.add_argument(
        "--save",
        default=None,
        help=_(
            "the save file, written after every decision (default jamaica-save.json; with "
            "--resume, go on in this file instead)"
        ),
    )
    play.add_argument("--resume", metavar="FILE", help=_("continue a saved game"))
    play.add_argument(
        "--delay", type=float, default=0.4, help=_("seconds between bot moves (0 to 10)")
    )
    rep = sub.add_parser("replay", help=_("step through a saved or finished game"))
    rep.add_argument("file")
    rep.add_argument("--analyse", "--analyze", type=int, metavar="SEAT",
                     help=_("master analyses this seat's decisions (1 is the first seat) at "
                            "once"))  # fmt: skip
    rep.add_argument("--budget", type=int, default=None, metavar="N",
                     help=_("the analysis's search per decision (master's iterations, default "
                            "{n})", n=400))  # fmt: skip
    for p in (play, rep):
        p.add_argument("--lang", choices=LANGUAGES, default=None,
                       help=_("the language of the screens (default: from LANGUAGE, LC_ALL, "
                              "LC_MESSAGES or LANG)"))  # fmt: skip
    srv = sub.add_parser("serve", help=_("the game server: play in the browser"))
    srv.add_argument("--host", default="127.0.0.1")
    srv.add_argument("--port", type=int, default=8000)
    srv.add_argument("--db", default=None, metavar="URL",
                     help=_("where games are kept: {sqlite} (default {default}) or {postgresql}; "
                            "also read from JAMAICA_DB", sqlite="sqlite:///FILE",
                            default="sqlite:///jamaica.db",
                            postgresql="postgresql://USER@HOST/NAME"))  # fmt: skip
    srv.add_argument("--node", metavar="NAME", help=_("one node of several sharing a PostgreSQL "
                     "database (see the docs' Running it at scale)"))  # fmt: skip
    srv.add_argument("--advertise", metavar="URL", help=_("with --node: where clients reach this "
                     "node: a proxy route (default /node/NAME) or {url}",
                     url="http://HOST:PORT"))  # fmt: skip
    srv.add_argument(
        "--redis",
        metavar="URL",
        help=_(
            "with --node: {url}, the lobby and the limits shared by every node; also read from "
            "JAMAICA_REDIS",
            url="redis://HOST:PORT/DB",
        ),
    )
    srv.add_argument("--lease", type=float, default=10.0, metavar="S", help=_("with --node: "
                     "seconds a node keeps its tables without renewing (default 10)"))  # fmt: skip
    lim = srv.add_argument_group(
        _("limits"),
        _("each also read from JAMAICA_<NAME> (e.g. JAMAICA_MAX_TABLES); an option wins"),
    )
    lim.add_argument(
        "--connections-per-address",
        type=int,
        metavar="N",
        help=_("open WebSockets from one client address (default 32)"),
    )
    lim.add_argument(
        "--max-connections",
        type=int,
        metavar="N",
        help=_("open WebSockets on the server, at most (default 4000, and below its open-file "
               "limit)"),
    )
    lim.add_argument(
        "--messages-per-second",
        type=float,
        metavar="R",
        help=_("messages a connection may send per second, sustained (default 20)"),
    )
    lim.add_argument(
        "--message-burst",
        type=int,
        metavar="N",
        help=_("messages a connection may send at once (default 60)"),
    )
    lim.add_argument(
        "--tables-per-minute",
        type=int,
        metavar="N",
        help=_("tables one address may create per minute (default 10)"),
    )
    lim.add_argument(
        "--max-tables",
        type=int,
        metavar="N",
        help=_("unfinished tables on the server (default 500)"),
    )
    lim.add_argument("--tables-per-address", type=int, metavar="N",
                     help=_("unfinished tables created from one address (default 20)"))  # fmt: skip
    lim.add_argument("--http-per-second", type=float, metavar="R",
                     help=_("HTTP requests per address per second, sustained; a write counts "
                          "as 10 (default 40)"))  # fmt: skip
    lim.add_argument("--http-burst", type=int, metavar="N",
                     help=_("HTTP requests per address at once (default 400)"))  # fmt: skip
    lim.add_argument(
        "--ladder-games",
        type=int,
        metavar="N",
        help=_("rated games a player needs to be on the ladder (default 10)"),
    )
    lim.add_argument(
        "--trust-proxy",
        action="append",
        metavar="ADDR",
        help=_(
            "a reverse proxy's address (or network) whose X-Forwarded-For names "
            "the client; repeat or separate with commas (default: none)"
        ),
    )
    lim.add_argument("--allow-origin", action="append", metavar="ORIGIN",
                     help=_("a web origin, besides the server's own, whose pages may open "
                          "WebSockets (e.g. {example}; * for any)",
                          example="https://example.org"))  # fmt: skip
    dbp = sub.add_parser("db", help=_("the database: its schema version, upgrades, copies"))
    dbsub = dbp.add_subparsers(dest="db_command", required=True, metavar="{upgrade,copy}")
    up = dbsub.add_parser("upgrade", help=_("bring a database to this jamaica's schema"))
    up.add_argument("--db", default=None, metavar="URL", help=_("default: JAMAICA_DB, else "
                    "{url}", url="sqlite:///jamaica.db"))  # fmt: skip
    cp = dbsub.add_parser("copy", help=_("copy a server's whole history into a new, empty database,"
                          " then replay every table on both sides"))  # fmt: skip
    cp.add_argument("source", metavar="FROM", help=_("e.g. {url}", url="sqlite:///jamaica.db"))
    cp.add_argument(
        "target", metavar="TO", help=_("e.g. {url}", url="postgresql://jamaica@localhost/jamaica")
    )
    babuse = sub.add_parser("bench-abuse", help=_("attacks on a real server, each measured by "
                            "what it changes for a bystander's game"))  # fmt: skip
    babuse.add_argument("attacks", nargs="*", metavar="ATTACK",
                        help=_("some of: names, join_burst, spectators, slow_bots, bad_utf8, chat, "
                             "http, replays, tables (default: all)"))  # fmt: skip
    babuse.add_argument(
        "--answers",
        type=int,
        default=200,
        help=_("the bystander's answers measured quiet, then under each attack"),
    )
    babuse.add_argument("--full", action="store_true",
                        help=_("the full sizes (250 spectators, 2,500 bad frames…), as with "
                             "JAMAICA_SOAK=1"))  # fmt: skip
    bsrv = sub.add_parser("bench-server", help=_("N concurrent games over real WebSockets"))
    bsrv.add_argument("--games", type=int, default=100)
    bsrv.add_argument("--seed", type=int, default=1)
    bsrv.add_argument("--spectators", type=int, default=0, metavar="N",
                      help=_("also run with N spectators on the first table"))  # fmt: skip
    bsrv.add_argument("--bot", metavar="SPEC",
                      help=_("seat B of every table is the server's bot of this spec (e.g. "
                             "greedy); prints the bots' queue wait"))  # fmt: skip
    bsrv.add_argument("--paced", action="store_true",
                      help=_("clients think 1-3 s (uniformly, seeded) before each answer, as "
                             "people do; the run lasts --seconds"))  # fmt: skip
    bsrv.add_argument("--seconds", type=float, default=60.0,
                      help=_("how long a paced run lasts (default 60)"))  # fmt: skip
    bsrv.add_argument("--find-capacity", action="store_true",
                      help=_("step the table count up from --games (x1.5) until the median p99 of "
                           "--repeat runs passes --p99, then bisect: the most tables one node "
                           "holds"))  # fmt: skip
    bsrv.add_argument("--repeat", type=int, default=3,
                      help=_("runs per table count with --find-capacity (their median "
                           "counts)"))  # fmt: skip
    bsrv.add_argument("--p99", type=float, default=100.0,
                      help=_("the answer->question p99 (ms) --find-capacity keeps "
                           "(default 100)"))  # fmt: skip
    bsrv.add_argument("--most", type=int, default=None,
                      help=_("the most tables --find-capacity tries (default 1000, 5000 "
                           "paced)"))  # fmt: skip
    bsrv.add_argument("--server-commit", metavar="REV",
                      help=_("run the server from an earlier commit's code (git archive; the "
                           "working tree is not touched): before and after, alike"))  # fmt: skip
    bso = sub.add_parser("bench-scaleout", help=_("tables held at p99 <= 100 ms by one node and by "
                         "two on one PostgreSQL (needs PostgreSQL installed)"))  # fmt: skip
    bso.add_argument("--repeat", type=int, default=3, help=_("runs per table count (median)"))
    bso.add_argument("--p99", type=float, default=100.0, help=_("the p99 kept, in ms"))
    bso.add_argument("--paced", action="store_true",
                     help=_("clients think 1-3 s before each answer, as people do"))  # fmt: skip
    bso.add_argument("--seconds", type=float, default=30.0,
                     help=_("how long each paced run measures (default 30)"))  # fmt: skip
    bso.add_argument(
        "--tables",
        metavar="N,N,...",
        help=_("the table counts to try, in order (default: a built-in ladder)"),
    )
    bcl = sub.add_parser("bench-cluster", help=_("kill -9, SIGSTOP, Redis and PostgreSQL outages "
                         "on a real service of nodes, while simulated people play"))  # fmt: skip
    bcl.add_argument("--kills", type=int, default=None, help=_("nodes killed (default 20)"))
    bcl.add_argument("--lease", type=float, default=None, help=_("the nodes' lease (default 10 s)"))
    bcl.add_argument("--redis-seconds", type=float, default=None,
                     help=_("how long Redis is down (default 30)"))  # fmt: skip
    bcl.add_argument("--pg-seconds", type=float, default=None,
                     help=_("how long PostgreSQL is down in its restart (default 15)"))  # fmt: skip
    bcl.add_argument(
        "--quick",
        action="store_true",
        help=_("a short run: 4 kills, lease 3 s, Redis down 5 s, PostgreSQL 4 s"),
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argparse_words()
    lang = from_environment()
    _ = Words(lang)
    parser = build_parser(lang)
    ns = parser.parse_args(argv)
    try:
        if ns.command == "demo":
            from .demo import run_demo

            print(run_demo(_config(ns), ns.seed, ns.spectator, ns.bot))
        elif ns.command == "bench":
            from .bench import report, run_bench

            if ns.games is None:
                ns.games = 60 if ns.hints else 1000
            if ns.games < 1:
                raise ValueError("--games must be at least 1")
            if ns.hints:
                from .bench import hint_bench, hint_report

                print(hint_report(hint_bench(ns.games, ns.seed), ns.games))
                return 0
            print(
                report(run_bench(ns.games, ns.players, ns.edition, ns.seed), ns.players, ns.edition)
            )
            if not ns.engine_only:
                from .bench import bot_bench

                greedy, iterations = bot_bench(edition=ns.edition)
                print("bots, one core:")
                print(f"  greedy decisions/s {greedy:10.0f}")
                print(
                    f"  ISMCTS iterations/s{iterations:10.0f}   (4-player mid-game card choice,"
                    " greedy rollouts)"
                )
                from .bench import env_bench

                pz, osp = env_bench()
                print("environments, 4 players, random actions, one core:")
                print(f"  PettingZoo steps/s {pz:10.0f}   (observations and masks included)")
                print(f"  OpenSpiel steps/s  {osp:10.0f}   (chance included; a tensor a decision)")
        elif ns.command == "tournament":
            from .lab.commands import tournament

            bots = [b.strip() for b in ns.bots.split(",")]
            config = _config(ns, players=len(bots))
            tournament(config, bots, ns.games, _cluster(ns), ns.seed, ns.out, ns.plot)
        elif ns.command == "bench-abuse":
            from .web.abuse import ATTACKS, bench_abuse

            unknown = [a for a in ns.attacks if a not in ATTACKS]
            if unknown:
                raise ValueError(f"no attack {unknown[0]!r}: one of {', '.join(ATTACKS)}")
            if not 5 <= ns.answers <= 10_000:
                raise ValueError("--answers must be between 5 and 10000")
            print(bench_abuse(ns.attacks or None, ns.answers, ns.full))
        elif ns.command == "bench-server":
            from .web.bench import Pacing, bench_server, find_capacity

            most = ns.most if ns.most is not None else 5000 if ns.paced else 1000
            if not 1 <= ns.games <= (5000 if ns.paced else 1000):
                raise ValueError("--games must be between 1 and 1000 (5000 with --paced)")
            if not 1 <= most <= 5000:
                raise ValueError("--most must be between 1 and 5000")
            if not 0 <= ns.spectators <= 5000:
                raise ValueError("--spectators must be between 0 and 5000")
            if not 1 <= ns.seconds <= 3600:
                raise ValueError("--seconds must be between 1 and 3600")
            if not 1 <= ns.repeat <= 50:
                raise ValueError("--repeat must be between 1 and 50")
            if ns.bot is not None:
                from .bots import parse_spec

                parse_spec(ns.bot)
            pacing = Pacing(ns.seconds) if ns.paced else None
            if ns.find_capacity:
                if ns.bot is not None or ns.spectators:
                    raise ValueError("--find-capacity plays every seat itself, with no spectators")
                print(find_capacity(ns.games, ns.seed, pacing, ns.server_commit, ns.p99,
                                    ns.repeat, most))  # fmt: skip
            else:
                print(bench_server(ns.games, ns.seed, ns.spectators, ns.bot, pacing,
                                   ns.server_commit))  # fmt: skip
        elif ns.command == "bench-scaleout":
            from .web.scaleout import bench_scaleout
            from .web.services import Missing

            if not (1 <= ns.repeat <= 20 and 1 <= ns.p99 <= 10_000 and 1 <= ns.seconds <= 3600):
                raise ValueError("--repeat is 1 to 20, --p99 1 to 10000 ms, --seconds 1 to 3600")
            steps = None
            if ns.tables is not None:
                steps = tuple(int(x) for x in ns.tables.split(",") if x.strip())
                if not steps or not all(1 <= x <= 5000 for x in steps):
                    raise ValueError("--tables is a list of counts from 1 to 5000, e.g. 200,400")
            from .web.bench import Pacing

            pacing = Pacing(ns.seconds) if ns.paced else None
            try:
                print(bench_scaleout(ns.p99, ns.repeat, pacing=pacing, steps=steps))
            except Missing as e:
                raise ValueError(f"bench-scaleout needs {e} installed") from None
        elif ns.command == "bench-cluster":
            from .web.chaos import Options, bench_cluster, table
            from .web.services import Missing

            o = Options.quick() if ns.quick else Options()
            for name in ("kills", "lease", "redis_seconds", "pg_seconds"):
                if getattr(ns, name) is not None:
                    setattr(o, name, getattr(ns, name))
            if not (1 <= o.kills <= 1000 and 1 <= o.lease <= 300 and 1 <= o.redis_seconds <= 3600
                    and 1 <= o.pg_seconds <= 3600):  # fmt: skip
                raise ValueError("--kills is 1 to 1000, --lease 1 to 300 s, an outage 1 to 3600 s")
            try:
                print(table(bench_cluster(o), o))
            except Missing as e:
                raise ValueError(f"bench-cluster needs {e} installed") from None
        elif ns.command == "serve":
            from .web.limits import Limits, check_settings
            from .web.server import serve

            check_settings()
            limits = Limits.from_env(
                connections_per_address=ns.connections_per_address,
                max_connections=ns.max_connections,
                messages_per_second=ns.messages_per_second,
                message_burst=ns.message_burst,
                tables_per_minute=ns.tables_per_minute,
                max_tables=ns.max_tables,
                tables_per_address=ns.tables_per_address,
                http_per_second=ns.http_per_second,
                http_burst=ns.http_burst,
                ladder_games=ns.ladder_games,
                trusted_proxies=ns.trust_proxy,
                allowed_origins=ns.allow_origin,
            )
            from .web.storage import db_url

            node = None
            if ns.node is not None:
                from .web.server import Node

                if not 1 <= ns.lease <= 300:
                    raise ValueError("--lease must be between 1 and 300 seconds")
                redis = ns.redis or os.environ.get("JAMAICA_REDIS") or None
                node = Node(ns.node, ns.advertise or f"/node/{ns.node}", ns.lease, redis)
            elif ns.redis:
                raise ValueError("--redis needs --node (one node of several)")
            serve(ns.host, ns.port, db_url(ns.db), limits, node)
        elif ns.command == "db":
            from .web import dbcommands
            from .web.storage import db_url

            if ns.db_command == "upgrade":
                print(dbcommands.upgrade(db_url(ns.db)))
            else:
                print(dbcommands.copy(ns.source, ns.target))
        elif ns.command in ("play", "replay"):
            return _terminal(ns)
        elif ns.command == "train" and ns.algo == "ppo":
            try:
                from .learn.jax.command import settings_from, train_ppo
            except ImportError as e:
                raise ValueError(f"--algo ppo needs the jax extra, pip install -e '.[jax]': {e}"
                                 ) from e  # fmt: skip
            on_ray = ns.ray is not None or ns.workers is not None
            train_ppo(settings_from(ns), ns.out or "ppo-run", ns.export, ns.plot,
                      _cluster(ns) if on_ray else None)  # fmt: skip
        elif ns.command == "train":
            from .learn.trainer import command

            opponents = [b.strip() for b in (ns.opponents or "random,greedy").split(",")]
            command(minutes=ns.minutes, games=ns.games, opponents=opponents, players=ns.players,
                    seed=ns.seed, out=ns.out or "learned.npz", plot=ns.plot,
                    init=ns.init)  # fmt: skip
        elif ns.command == "i18n":
            from .i18n import tools

            print(tools.extract() if ns.step == "extract" else tools.compile_all())
        elif ns.command == "rate-bots":
            from .lab.ratebots import rate_bots

            words = ["jamaica rate-bots", f"--games {ns.games}", f"--seed {ns.seed}",
                     f"--editions {ns.editions}", f"--levels {ns.levels}"]  # fmt: skip
            rate_bots(ns.games, ns.seed, [e.strip() for e in ns.editions.split(",")],
                      [lv.strip() for lv in ns.levels.split(",")], ns.workers, ns.out,
                      command=" ".join(words))  # fmt: skip
        elif ns.command == "simulate":
            from .lab.commands import simulate

            simulate(_config(ns), ns.bot, ns.games, _cluster(ns), ns.seed, ns.out, ns.plot)
        elif ns.command == "lab" and ns.lab_command == "strength":
            from .lab.strength import command as strength

            print(strength(games=ns.games, quick=ns.quick, seed=ns.seed, cluster=_cluster(ns),
                           rows=ns.rows, pairings=ns.pairings, simulations=ns.spiel_simulations,
                           calibrating=ns.calibrate))  # fmt: skip
        elif ns.command == "lab" and ns.lab_command == "fit-value":
            from pathlib import Path

            from .lab.fitvalue import command as fit_value

            out = Path(ns.out) if ns.out else None
            print(fit_value(ns.games, ns.seed, ns.bot, _cluster(ns), out))
        elif ns.command == "lab":
            from .lab.baseline import DEFAULT_GAMES, QUICK_GAMES, table_command

            if ns.quick and ns.games is not None:
                raise ValueError(f"--quick plays {QUICK_GAMES} games per cell: give --quick or "
                                 "--games")  # fmt: skip
            games = ns.games if ns.games is not None else QUICK_GAMES if ns.quick else DEFAULT_GAMES
            print(table_command(games, ns.seed, _cluster(ns), ns.rows))
        elif ns.command == "bench-ray":
            from .lab.benchray import bench_ray

            print(bench_ray(ns.games, ns.repeat, ns.seed, ns.bot))
    except ValueError as e:
        parser.exit(2, _("%(prog)s: error: %(message)s\n") % {"prog": "jamaica", "message": e})
    except BrokenPipeError:  # e.g. `jamaica demo | head`
        sys.stderr.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
