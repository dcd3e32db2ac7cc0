#!/usr/bin/env python3
"""Checks the play page of `cowrie play` in a real headless browser (Debian's chromium through
chromium-driver and selenium, installed into tools/.venv-browser by tools/browser_check.py).

For each of the four games it starts `cowrie play --agent random --port 0`, opens the page, and
plays one whole game to its end as a person would: moves chosen (by a seeded random draw) by
clicking them or by the arrow keys and Enter, Bargese's long lists narrowed part by part, the
filter box and the undo button tried once. Along the way and at the end it checks that the
page's board is the diagram `cowrie show --position <the page's position>` draws (the same SVG
element tree, attributes and text), that the page logged no script error, downloads the game's
records.jsonl by its link and checks that `cowrie replay` verifies it, and sends bad requests
(an illegal move, a stale version, an unknown game, garbage JSON, a body over 64 KiB), each of
which must get a 4xx with a one-line JSON error and leave the game as it was. Screenshots of
each game's start and end are left in --out to be looked at. First, without the browser, it runs
tools/line_check.py: a whole game of `cowrie play --line` typed through a pseudo-terminal.

  python3 tools/browser_check.py --install
  python3 tools/play_check.py [--cowrie target/debug/cowrie] [--out target/play-check]
"""

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import browser_check as bc  # noqa: E402
import line_check  # noqa: E402

# The games, with options that keep a game a person clicks through short: Baghchal's random
# games otherwise often run to the 1,000-ply cap, Julbahar's state is a whole match to 31.
GAMES = [
    ("baghchal", ["--option", "ply-cap=120"]),
    ("frangieh", []),
    ("julbahar", ["--option", "target=3"]),
    ("bargese", []),
]


def fail(msg):
    sys.exit("play check: FAILED: " + msg)


def request(url, method="GET", body=None):
    """Status and body (parsed JSON where it is JSON) of one request."""
    data = body if isinstance(body, (bytes, type(None))) else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, method=method,
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            status, raw = r.status, r.read()
    except urllib.error.HTTPError as e:
        status, raw = e.code, e.read()
    try:
        return status, json.loads(raw)
    except ValueError:
        return status, raw


def canonical(svg_text):
    """The SVG's element tree as nested tuples: tag, sorted attributes, stripped text."""
    def walk(e):
        text = (e.text or "").strip()
        return (e.tag, tuple(sorted(e.attrib.items())), text, tuple(walk(c) for c in e))
    return walk(ET.fromstring(svg_text))


def check_board(driver, cowrie, game, opts, tmp):
    """The page's board against `cowrie show` of the page's position."""
    from selenium.webdriver.common.by import By

    position = driver.find_element(By.ID, "board").get_attribute("data-position")
    page_svg = driver.execute_script(
        "return new XMLSerializer().serializeToString(document.querySelector('#board svg'));")
    out = os.path.join(tmp, "show.svg")
    subprocess.check_call([cowrie, "show", "--game", game, *opts, "--position", position, "--out", out],
                          stdout=subprocess.DEVNULL)
    with open(out, encoding="utf-8") as f:
        shown = f.read()
    if canonical(page_svg) != canonical(shown):
        fail(f"{game}: the page's board differs from `cowrie show --position '{position}'`")


def bad_requests(base, game_id, version):
    """Each bad request gets a 4xx and a one-line JSON error, and leaves the game as it was."""
    _, before = request(f"{base}api/state?game={game_id}")
    cases = [
        ("an illegal move", "POST", "api/move", {"game": game_id, "move": "no-such-move"}, 400),
        ("a stale version", "POST", "api/move",
         {"game": game_id, "move": before["legal"][0], "version": version + 7}, 409),
        ("an unknown game", "POST", "api/move", {"game": 987654, "move": before["legal"][0]}, 404),
        ("garbage JSON", "POST", "api/move", b"{game: nonsense", 400),
        ("a body over 64 KiB", "POST", "api/move", b"{\"move\": \"" + b"x" * 70000 + b"\"}", 413),
        ("a stale undo", "POST", "api/undo", {"game": game_id, "version": version + 1}, 409),
        ("a bad game id", "GET", "api/state?game=x1", None, 400),
    ]
    for what, method, path, body, want in cases:
        status, answer = request(base + path, method, body)
        if status != want or not isinstance(answer, dict) or "error" not in answer \
                or "\n" in answer["error"]:
            fail(f"{what}: got {status} {answer!r}, wanted {want} with a one-line JSON error")
        _, after = request(f"{base}api/state?game={game_id}")
        if after != before:
            fail(f"{what} changed the game")
    return len(cases)


def play_game(driver, cowrie, game, opts, out, tmp, rng):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    proc = subprocess.Popen([cowrie, "play", "--game", game, *opts, "--agent", "random", "--port", "0",
                             "--seed", "11"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        base = proc.stdout.readline().strip()
        if not base.startswith("http://127.0.0.1:"):
            fail(f"{game}: cowrie play printed {base!r}, not its address ({proc.stderr.read()})")
        driver.get(base)
        board = lambda: driver.find_element(By.ID, "board")
        version = lambda: board().get_attribute("data-version")

        def wait(pred, what):
            for _ in range(3000):
                if pred():
                    return
                time.sleep(0.01)
            fail(f"{game}: timed out waiting for {what}")

        wait(lambda: version(), "the first position")
        bc.look(driver, os.path.join(out, f"{game}-start.png"))
        check_board(driver, cowrie, game, opts, tmp)
        clicks = keys = undos = filtered = boards = 0
        human = 0
        last = board().get_attribute("data-position")
        parts = 0
        snap_js = ("const b = document.getElementById('board'); return [b.dataset.version, b.dataset.over, "
                   "document.getElementById('path').textContent, document.body.dataset.busy || '', "
                   "Array.from(document.querySelectorAll('#moves li')).map(li => [li.dataset.kind, li.dataset.text])];")
        snap = lambda: driver.execute_script(snap_js)
        while True:
            before = snap()
            if before[1] == "1":
                break
            listed = before[4]
            if not listed:
                fail(f"{game}: no legal moves listed and the game is not over")
            kinds = {k for k, _ in listed}
            moves = [t for k, t in listed if k == "move"]
            if human >= 5 and filtered == 0 and len(moves) > 1:
                # The filter box: typing a move's text leaves only moves that contain it.
                text = moves[-1]
                box = driver.find_element(By.ID, "filter")
                box.send_keys(text)
                shown = snap()[4]
                if not shown or any(text not in t for _, t in shown):
                    fail(f"{game}: filtering by {text!r} left {shown[:5]}")
                box.send_keys(Keys.ENTER)  # to the list; the first match is focused
                driver.switch_to.active_element.send_keys(Keys.ENTER)
                filtered += 1
                k = None
            elif rng.random() < 0.5:
                k = rng.randrange(len(listed))
                driver.find_elements(By.CSS_SELECTOR, "#moves li")[k].click()
                clicks += 1
            else:
                # The first entry has the focus: down k times, then Enter.
                k = rng.randrange(len(listed))
                active = driver.switch_to.active_element
                active.send_keys(*([Keys.ARROW_DOWN] * k), Keys.ENTER)
                keys += 1
            if k is not None and listed[k][0] == "part":
                parts += 1
            # A whole move changes the version; a part narrows the list.
            wait(lambda: (lambda now: (now[0] != before[0] or now[2] != before[2]) and now[3] != "1")(snap()),
                 "the page to answer a choice")
            if version() != before[0]:
                human += 1
                if human % 15 == 0:
                    check_board(driver, cowrie, game, opts, tmp)
                    boards += 1
                if human == 3 and undos == 0:
                    # Undo goes back to the previous decision: the position before the last move.
                    v = version()
                    driver.find_element(By.ID, "undo").click()
                    wait(lambda: version() != v, "undo")
                    if board().get_attribute("data-position") != last:
                        fail(f"{game}: undo did not go back to the previous decision")
                    undos += 1
                    human -= 1
                last = board().get_attribute("data-position")
        check_board(driver, cowrie, game, opts, tmp)
        boards += 2
        bc.look(driver, os.path.join(out, f"{game}-end.png"))
        bad = bc.errors(driver)
        if bad:
            fail(f"{game}: the page logged errors: {bad}")
        status = driver.find_element(By.ID, "status").text
        gid = version().split(":")[0]
        _, state = request(f"{base}api/state?game={gid}")
        # The record, downloaded by its link.
        dl = os.path.join(tmp, "downloads")
        for f in os.listdir(dl):
            os.remove(os.path.join(dl, f))
        driver.find_element(By.ID, "record").click()
        path = os.path.join(dl, "records.jsonl")
        wait(lambda: os.path.exists(path) and os.path.getsize(path) > 0, "the download of records.jsonl")
        kept = os.path.join(out, f"{game}-records.jsonl")
        shutil.copy(path, kept)
        replay = subprocess.run([cowrie, "replay", kept, "--quiet"], capture_output=True, text=True)
        if replay.returncode != 0 or "verified" not in replay.stdout:
            fail(f"{game}: cowrie replay refused the downloaded record: {replay.stderr.strip()}")
        rec = json.loads(open(kept).read())
        if rec["plies"] != state["plies"] or rec["end_reason"] != state["end_reason"]:
            fail(f"{game}: the record ({rec['plies']} plies, {rec['end_reason']}) is not the page's game")
        # Bad requests against a fresh game, at the person's first decision.
        _, fresh = request(base + "api/new", "POST", {})
        if not fresh.get("your_turn"):
            _, fresh = request(base + "api/new", "POST", {"seat": 2})
        refused = bad_requests(base, fresh["game"], fresh["version"])
        print(f"play check: {game}: {state['plies']} plies ({human} of them the page's: {clicks} by click, "
              f"{keys} by keyboard, {filtered} through the filter; {parts} of the choices a part of a move; 1 undo), {state['end_reason']}; "
              f"'{status}'; board equal to cowrie show at {boards} positions; record replayed; "
              f"{refused} bad requests refused")
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def check(cowrie, out):
    # The line mode first, through a pseudo-terminal: it needs no browser.
    line_check.check(cowrie)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    os.makedirs(out, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix="cowrie-play-check-")
    profile = os.path.join(tmp, "profile")
    os.makedirs(os.path.join(tmp, "downloads"))
    opts = webdriver.ChromeOptions()
    opts.binary_location = bc.CHROMIUM
    for f in bc.FLAGS + ["--user-data-dir=" + profile]:
        opts.add_argument(f)
    opts.add_experimental_option("prefs", {
        "download.default_directory": os.path.join(tmp, "downloads"),
        "download.prompt_for_download": False,
    })
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(bc.DRIVER), options=opts)
    rng = random.Random(7)
    start = time.monotonic()
    try:
        driver.execute_cdp_cmd("Page.setDownloadBehavior",
                               {"behavior": "allow", "downloadPath": os.path.join(tmp, "downloads")})
        for game, game_opts in GAMES:
            play_game(driver, cowrie, game, game_opts, out, tmp, rng)
        print(f"play check: {driver.capabilities.get('browserVersion')}: four whole games played in "
              f"{time.monotonic() - start:.0f} s; screenshots in {out}")
    finally:
        driver.quit()
        shutil.rmtree(tmp, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cowrie", default=os.path.join(os.environ.get("CARGO_TARGET_DIR", os.path.join(bc.ROOT, "target")), "debug", "cowrie"))
    ap.add_argument("--out", default=None, help="where the screenshots and records go (default: the target directory's play-check/)")
    args = ap.parse_args()
    if not bc.in_venv():
        bc.install()
        os.execv(bc.VENV_PY, [bc.VENV_PY] + sys.argv)
    out = args.out or os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(args.cowrie))), "play-check")
    check(os.path.abspath(args.cowrie), out)


if __name__ == "__main__":
    main()
