"""The `jamaica` command."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from .rules import EDITIONS, Config

if TYPE_CHECKING:
    from .tui.app import JamaicaApp


def _config_args(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--players",
        type=int,
        default=None,
        dest="players_given",
        help="2 to 6 (default 4; for a tournament, the number of bots)",
    )
    p.add_argument("--edition", choices=EDITIONS, default="2021", help="rules edition")
    g = p.add_mutually_exclusive_group()
    g.add_argument(
        "--ghost",
        dest="ghost",
        action="store_true",
        default=None,
        help="play with the Ghost Ship (always on with 2 players)",
    )
    g.add_argument("--no-ghost", dest="ghost", action="store_false")
    p.add_argument("--max-rounds", type=int, default=100, help="safety limit (R7)")


def _lab_args(p: argparse.ArgumentParser, games: int) -> None:
    p.add_argument("--games", type=int, default=games)
    p.add_argument(
        "--workers", type=int, default=os.cpu_count() or 1, help="processes (default: every core)"
    )
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", help="per-game results: FILE.csv or FILE.json")
    p.add_argument("--plot", help="a figure: FILE.png")


def _config(ns: argparse.Namespace, players: int | None = None) -> Config:
    n = ns.players_given or players or 4
    return Config(players=n, edition=ns.edition, ghost_ship=ns.ghost, max_rounds=ns.max_rounds)


def _terminal(ns: argparse.Namespace) -> int:
    from pathlib import Path

    from .session import GameSession

    if ns.command == "replay":
        from .tui.replay import ReplayApp

        ReplayApp(GameSession.load(Path(ns.file))).run()
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

    if not math.isfinite(ns.delay) or not 0 <= ns.delay <= 10:
        raise ValueError(f"--delay must be a number of seconds from 0 to 10, not {ns.delay:g}")
    if ns.save is not None and not ns.save.strip():  # it silently meant the default file
        raise ValueError("--save needs a file name (without --save: jamaica-save.json)")
    if ns.resume is not None and not ns.resume.strip():  # it silently started a new game
        raise ValueError("--resume needs the file of the game to resume")
    if ns.resume:
        for flag, value in (("--seats", ns.seats), ("--names", ns.names), ("--seed", ns.seed),
                            ("--players", ns.players_given)):  # fmt: skip
            if value not in (None, ""):
                raise ValueError(f"{flag} cannot be used with --resume: the game is in the file")
        session = GameSession.load(Path(ns.resume))
        if ns.save is not None:  # go on in another file; the one resumed is left as it was
            session.path = Path(ns.save)
        assert session.path is not None
        check_writable(session.path)
        note = ""
        for i, seat in enumerate(session.seats):
            if seat.bot is not None and reproducible(seat.bot) != seat.bot:
                session.seats[i] = replace(seat, bot=reproducible(seat.bot))
                note += (f"Seat {i + 1}'s bot {seat.bot} now plays {session.seats[i].bot}, so "
                         "that the game resumes exactly. ")  # fmt: skip
        app = JamaicaApp(session, delay=ns.delay)
        if note:
            app.outcome.notes.append(note.strip())
        return app
    names = tuple(n.strip() for n in ns.names.split(",")) if ns.names else ()
    kinds = tuple(k.strip() for k in ns.seats.split(",")) if ns.seats else ()
    players = ns.players_given or len(kinds) or (len(names) if 2 <= len(names) <= 6 else 4)
    if len(names) > players:
        raise ValueError(f"--names gives {len(names)} names for {players} players")
    table = TableChoice(players, ns.edition, ns.ghost, ns.max_rounds, names, kinds)
    table.config()
    if kinds:
        if len(kinds) != players:
            raise ValueError(f"--seats gives {len(kinds)} seats for {players} players")
        for i, seat in enumerate(table.seats()):
            if seat.bot is not None and reproducible(seat.bot) != seat.bot:
                raise ValueError(
                    f"seat {i + 1} ({seat.bot!r}): a bot given seconds plays differently on "
                    "each run, so a saved game would not resume exactly; give it iterations "
                    f"instead, e.g. {reproducible(seat.bot)}"
                )
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
            what = "a finished game" if other is not None else "something that is not a game"
            new = free_save_path(save)
            note = f"{save} holds {what} and is kept: this game will be saved in {new}."
            save = new
    return JamaicaApp(seed=ns.seed, save_path=save, delay=ns.delay, table=table,
                      start=bool(kinds), found=found, note=note)  # fmt: skip


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="jamaica", description="Jamaica, the pirate race.")
    sub = parser.add_subparsers(dest="command", required=True)
    demo = sub.add_parser("demo", help="watch a whole game between bots, play by play")
    _config_args(demo)
    demo.add_argument("--seed", type=int, default=1)
    demo.add_argument("--bot", default="greedy", help="the bot in every seat (default greedy)")
    demo.add_argument(
        "--spectator",
        action="store_true",
        help="show public events only (no hands, no face-down values)",
    )
    bench = sub.add_parser("bench", help="measure the engine's speed on one core")
    bench.add_argument("--games", type=int, default=None, help="random games (1000; --hints: 60)")
    bench.add_argument("--players", type=int, default=4)
    bench.add_argument("--edition", choices=EDITIONS, default="2021")
    bench.add_argument("--seed", type=int, default=1)
    bench.add_argument("--engine-only", action="store_true", help="skip the bots' figures")
    bench.add_argument(
        "--hints",
        action="store_true",
        help="instead: the worst work and time, per kind of question, of what the server computes"
        " for an update (view, question, hints), over the worst cases built and random games",
    )
    tour = sub.add_parser("tournament", help="pit bots against each other over many games")
    _config_args(tour)
    tour.add_argument(
        "--bots",
        required=True,
        help="one bot per seat, comma-separated, e.g. ismcts,greedy,greedy,greedy "
        "(options: ismcts:seconds=0.5:rollout=greedy)",
    )
    _lab_args(tour, games=400)
    trn = sub.add_parser("train", help="train the learned bot's policy (numpy), learning curve")
    trn.add_argument("--minutes", type=float, default=20.0, help="wall-clock budget (default 20)")
    trn.add_argument("--games", type=int, default=1_000_000, help="or stop after this many games")
    trn.add_argument("--opponents", default="random,greedy", help="bot specs or self, one per game")
    trn.add_argument("--players", type=int, default=2, help="players per game (default 2)")
    trn.add_argument("--seed", type=int, default=1)
    trn.add_argument("--out", default="learned.npz", help="the weights (default learned.npz)")
    trn.add_argument("--plot", default=None, help="draw the learning curve to this PNG")
    trn.add_argument("--init", default=None, help="start from these weights (.npz)")
    sim = sub.add_parser("simulate", help="design statistics over many games of one bot")
    _config_args(sim)
    sim.add_argument("--bot", default="greedy", help="the bot in every seat (default greedy)")
    _lab_args(sim, games=1000)
    i18n = sub.add_parser("i18n", help="the translations' catalogs (Babel): extract, compile")
    i18n.add_argument("step", choices=("extract", "compile"),
                      help="extract: every marked message into the template and each language's "
                           ".po; compile: each .po into the .mo the program reads")  # fmt: skip
    rb = sub.add_parser("rate-bots", help="the bot levels on the players' rating scale (openskill)")
    rb.add_argument("--games", type=int, default=120, help="games per edition (default 120)")
    rb.add_argument("--seed", type=int, default=1)
    rb.add_argument("--editions", default=",".join(EDITIONS), help="comma-separated (default both)")
    rb.add_argument(
        "--levels",
        default="random,easy,rules,greedy,medium,hard",
        help="the bots rated, comma-separated (default: the levels and the anchors)",
    )
    rb.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    rb.add_argument("--out", help="the ratings as JSON (as shipped in jamaica/ratings/bots.json)")
    play = sub.add_parser("play", help="play in the terminal, against bots or at one keyboard")
    _config_args(play)
    play.add_argument(
        "--seats", help="skip the setup screen: one per seat, e.g. human,greedy,greedy"
    )
    play.add_argument("--names", default="", help="players' names, comma-separated")
    play.add_argument("--seed", type=int, default=None)
    play.add_argument(
        "--save",
        default=None,
        help="the save file, written after every decision (default jamaica-save.json; with "
        "--resume, go on in this file instead)",
    )
    play.add_argument("--resume", metavar="FILE", help="continue a saved game")
    play.add_argument(
        "--delay", type=float, default=0.4, help="seconds between bot moves (0 to 10)"
    )
    rep = sub.add_parser("replay", help="step through a saved or finished game")
    rep.add_argument("file")
    srv = sub.add_parser("serve", help="the game server: play in the browser")
    srv.add_argument("--host", default="127.0.0.1")
    srv.add_argument("--port", type=int, default=8000)
    srv.add_argument("--db", default=None, metavar="URL",
                     help="where games are kept: sqlite:///FILE (default sqlite:///jamaica.db) or "
                     "postgresql://USER@HOST/NAME; also read from JAMAICA_DB")  # fmt: skip
    srv.add_argument("--node", metavar="NAME", help="one node of several sharing a PostgreSQL "
                     "database (see the docs' Running it at scale)")  # fmt: skip
    srv.add_argument("--advertise", metavar="URL", help="with --node: where clients reach this "
                     "node: a proxy route (default /node/NAME) or http://HOST:PORT")  # fmt: skip
    srv.add_argument("--redis", metavar="URL", help="with --node: redis://HOST:PORT/DB, the "
                     "lobby and the limits shared by every node; also read from JAMAICA_REDIS")
    srv.add_argument("--lease", type=float, default=10.0, metavar="S", help="with --node: "
                     "seconds a node keeps its tables without renewing (default 10)")  # fmt: skip
    lim = srv.add_argument_group(
        "limits", "each also read from JAMAICA_<NAME> (e.g. JAMAICA_MAX_TABLES); an option wins"
    )
    lim.add_argument(
        "--connections-per-address",
        type=int,
        metavar="N",
        help="open WebSockets from one client address (default 32)",
    )
    lim.add_argument(
        "--messages-per-second",
        type=float,
        metavar="R",
        help="messages a connection may send per second, sustained (default 20)",
    )
    lim.add_argument(
        "--message-burst",
        type=int,
        metavar="N",
        help="messages a connection may send at once (default 60)",
    )
    lim.add_argument(
        "--tables-per-minute",
        type=int,
        metavar="N",
        help="tables one address may create per minute (default 10)",
    )
    lim.add_argument(
        "--max-tables", type=int, metavar="N", help="unfinished tables on the server (default 500)"
    )
    lim.add_argument("--tables-per-address", type=int, metavar="N",
                     help="unfinished tables created from one address (default 20)")  # fmt: skip
    lim.add_argument("--http-per-second", type=float, metavar="R",
                     help="HTTP requests per address per second, sustained; a write counts "
                          "as 10 (default 40)")  # fmt: skip
    lim.add_argument("--http-burst", type=int, metavar="N",
                     help="HTTP requests per address at once (default 400)")  # fmt: skip
    lim.add_argument("--ladder-games", type=int, metavar="N",
                     help="rated games a player needs to be on the ladder (default 10)")
    lim.add_argument(
        "--trust-proxy",
        action="append",
        metavar="ADDR",
        help="a reverse proxy's address (or network) whose X-Forwarded-For names "
        "the client; repeat or separate with commas (default: none)",
    )
    lim.add_argument("--allow-origin", action="append", metavar="ORIGIN",
                     help="a web origin, besides the server's own, whose pages may open "
                          "WebSockets (e.g. https://example.org; * for any)")  # fmt: skip
    dbp = sub.add_parser("db", help="the database: its schema version, upgrades, copies")
    dbsub = dbp.add_subparsers(dest="db_command", required=True, metavar="{upgrade,copy}")
    up = dbsub.add_parser("upgrade", help="bring a database to this jamaica's schema")
    up.add_argument("--db", default=None, metavar="URL", help="default: JAMAICA_DB, else "
                    "sqlite:///jamaica.db")  # fmt: skip
    cp = dbsub.add_parser("copy", help="copy a server's whole history into a new, empty database,"
                          " then replay every table on both sides")  # fmt: skip
    cp.add_argument("source", metavar="FROM", help="e.g. sqlite:///jamaica.db")
    cp.add_argument("target", metavar="TO", help="e.g. postgresql://jamaica@localhost/jamaica")
    babuse = sub.add_parser("bench-abuse", help="attacks on a real server, each measured by "
                            "what it changes for a bystander's game")  # fmt: skip
    babuse.add_argument("attacks", nargs="*", metavar="ATTACK",
                        help="some of: names, join_burst, spectators, slow_bots, bad_utf8, chat, "
                             "http, replays, tables (default: all)")  # fmt: skip
    babuse.add_argument("--answers", type=int, default=200,
                        help="the bystander's answers measured quiet, then under each attack")
    babuse.add_argument("--full", action="store_true",
                        help="the full sizes (250 spectators, 2,500 bad frames…), as with "
                             "JAMAICA_SOAK=1")  # fmt: skip
    bsrv = sub.add_parser("bench-server", help="N concurrent games over real WebSockets")
    bsrv.add_argument("--games", type=int, default=100)
    bsrv.add_argument("--seed", type=int, default=1)
    bsrv.add_argument("--spectators", type=int, default=0, metavar="N",
                      help="also run with N spectators on the first table")  # fmt: skip
    bsrv.add_argument("--bot", metavar="SPEC",
                      help="seat B of every table is the server's bot of this spec (e.g. greedy); "
                           "prints the bots' queue wait")  # fmt: skip
    bsrv.add_argument("--paced", action="store_true",
                      help="clients think 1-3 s (uniformly, seeded) before each answer, as people "
                           "do; the run lasts --seconds")  # fmt: skip
    bsrv.add_argument("--seconds", type=float, default=60.0,
                      help="how long a paced run lasts (default 60)")  # fmt: skip
    bsrv.add_argument("--find-capacity", action="store_true",
                      help="step the table count up from --games (x1.5) until the median p99 of "
                           "--repeat runs passes --p99, then bisect: the most tables one node "
                           "holds")  # fmt: skip
    bsrv.add_argument("--repeat", type=int, default=3,
                      help="runs per table count with --find-capacity (their median "
                           "counts)")  # fmt: skip
    bsrv.add_argument("--p99", type=float, default=100.0,
                      help="the answer->question p99 (ms) --find-capacity keeps "
                           "(default 100)")  # fmt: skip
    bsrv.add_argument("--most", type=int, default=None,
                      help="the most tables --find-capacity tries (default 1000, 5000 "
                           "paced)")  # fmt: skip
    bsrv.add_argument("--server-commit", metavar="REV",
                      help="run the server from an earlier commit's code (git archive; the "
                           "working tree is not touched): before and after, alike")  # fmt: skip
    bso = sub.add_parser("bench-scaleout", help="tables held at p99 <= 100 ms by one node and by "
                         "two on one PostgreSQL (needs PostgreSQL installed)")  # fmt: skip
    bso.add_argument("--repeat", type=int, default=3, help="runs per table count (median)")
    bso.add_argument("--p99", type=float, default=100.0, help="the p99 kept, in ms")
    bso.add_argument("--paced", action="store_true",
                     help="clients think 1-3 s before each answer, as people do")  # fmt: skip
    bso.add_argument("--seconds", type=float, default=30.0,
                     help="how long each paced run measures (default 30)")  # fmt: skip
    bso.add_argument("--tables", metavar="N,N,...",
                     help="the table counts to try, in order (default: a built-in ladder)")
    bcl = sub.add_parser("bench-cluster", help="kill -9, SIGSTOP, Redis and PostgreSQL outages "
                         "on a real service of nodes, while simulated people play")  # fmt: skip
    bcl.add_argument("--kills", type=int, default=None, help="nodes killed (default 20)")
    bcl.add_argument("--lease", type=float, default=None, help="the nodes' lease (default 10 s)")
    bcl.add_argument("--redis-seconds", type=float, default=None,
                     help="how long Redis is down (default 30)")  # fmt: skip
    bcl.add_argument("--pg-seconds", type=float, default=None,
                     help="how long PostgreSQL is down in its restart (default 15)")  # fmt: skip
    bcl.add_argument("--quick", action="store_true",
                     help="a short run: 4 kills, lease 3 s, Redis down 5 s, PostgreSQL 4 s")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
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
            tournament(config, bots, ns.games, ns.workers, ns.seed, ns.out, ns.plot)
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
            from .web.limits import Limits
            from .web.server import serve

            limits = Limits.from_env(
                connections_per_address=ns.connections_per_address,
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
        elif ns.command == "train":
            from .learn.trainer import command

            opponents = [b.strip() for b in ns.opponents.split(",")]
            command(minutes=ns.minutes, games=ns.games, opponents=opponents, players=ns.players,
                    seed=ns.seed, out=ns.out, plot=ns.plot, init=ns.init)  # fmt: skip
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

            simulate(_config(ns), ns.bot, ns.games, ns.workers, ns.seed, ns.out, ns.plot)
    except ValueError as e:
        parser.exit(2, f"jamaica: error: {e}\n")
    except BrokenPipeError:  # e.g. `jamaica demo | head`
        sys.stderr.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
