#!/usr/bin/env python3
"""Checks the replay page of `cowrie replay --html` in a real headless browser: Debian's
`chromium` driven through `chromium-driver` by selenium (from PyPI, in tools/.venv-browser,
gitignored).

It records a short Frangieh match, writes game 0's page, opens it, checks that the page logged
no script error, presses the right-arrow key and checks that the step and the board changed,
clicks the `next` button and checks again, and takes a screenshot at each step, checked to be
non-blank and to differ from the previous one (not compared with stored pixels: Debian's
Chromium moves). The run's index.html is opened too, with the same check for errors. The
screenshots are left in --out to be looked at.

  python3 tools/browser_check.py --install    # apt-get chromium chromium-driver, pip selenium pillow
  python3 tools/browser_check.py [--cowrie target/debug/cowrie] [--out target/browser-check]
"""

import argparse
import io
import os
import shutil
import subprocess
import sys
import tempfile
import venv

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VENV = os.path.join(ROOT, "tools", ".venv-browser")
VENV_PY = os.path.join(VENV, "bin", "python")
CHROMIUM = "/usr/bin/chromium"
DRIVER = "/usr/bin/chromedriver"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--window-size=1100,1300",
]


def install():
    """Installs what is missing: Debian's chromium and chromium-driver, then the venv."""
    if not (os.path.exists(CHROMIUM) and os.path.exists(DRIVER)):
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        subprocess.check_call(["apt-get", "update", "-qq"], stdout=sys.stderr, env=env)
        subprocess.check_call(["apt-get", "install", "-y", "-qq", "chromium", "chromium-driver"],
                              stdout=sys.stderr, env=env)
    if not os.path.exists(VENV_PY):
        venv.EnvBuilder(with_pip=True).create(VENV)
    has = subprocess.run([VENV_PY, "-c", "import selenium, PIL"], stderr=subprocess.DEVNULL)
    if has.returncode:
        pip = [VENV_PY, "-m", "pip", "install", "-q"]
        subprocess.check_call(pip + ["selenium", "pillow"], stdout=sys.stderr)


def in_venv():
    return os.path.abspath(sys.prefix) == os.path.abspath(VENV)


def fail(msg):
    sys.exit("browser check: FAILED: " + msg)


def errors(driver):
    """The page's console entries at level SEVERE (script errors, failed loads)."""
    return [e for e in driver.get_log("browser") if e.get("level") == "SEVERE"]


def look(driver, path):
    """Saves a screenshot to `path` and returns its pixels, checked to be non-blank."""
    from PIL import Image

    png = driver.get_screenshot_as_png()
    with open(path, "wb") as f:
        f.write(png)
    img = Image.open(io.BytesIO(png)).convert("RGB")
    colours = img.getcolors(maxcolors=1 << 20) or []
    if len(colours) < 8:
        fail(f"{path}: blank screenshot ({len(colours)} colours)")
    return img


def differing(a, b):
    from PIL import ImageChops

    if a.size != b.size:
        return a.size[0] * a.size[1]
    diff = ImageChops.difference(a, b).convert("L").point(lambda v: 255 if v > 40 else 0)
    return diff.histogram()[255]


def check(cowrie, out):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    os.makedirs(out, exist_ok=True)
    run = os.path.join(out, "run")
    subprocess.check_call([cowrie, "match", "--game", "frangieh", "--p1", "random", "--p2", "heuristic",
                           "--games", "2", "--seed", "1", "--threads", "1", "--record", "--quiet",
                           "--out", run], stdout=subprocess.DEVNULL)
    page = os.path.join(out, "game0.html")
    subprocess.check_call([cowrie, "replay", os.path.join(run, "records.jsonl"), "--game-index", "0",
                           "--html", page, "--quiet"], stdout=subprocess.DEVNULL)
    profile = tempfile.mkdtemp(prefix="cowrie-chromium-")
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for f in FLAGS + ["--user-data-dir=" + profile]:
        opts.add_argument(f)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(DRIVER), options=opts)
    try:
        driver.get("file://" + os.path.abspath(page))
        bad = errors(driver)
        if bad:
            fail(f"the page logged errors on load: {bad}")
        step = lambda: driver.find_element(By.TAG_NAME, "body").get_attribute("data-step")
        board = lambda: driver.find_element(By.ID, "board").get_attribute("innerHTML")
        caption = lambda: driver.find_element(By.ID, "caption").text
        if step() != "0" or "<svg" not in board():
            fail(f"the page did not draw its first step (step {step()!r})")
        shots = [look(driver, os.path.join(out, "step0.png"))]
        seen = [board()]
        # Step 1 by the right-arrow key, step 2 by the next button.
        driver.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_RIGHT)
        if step() != "1":
            fail(f"the right-arrow key did not step forward (step {step()!r})")
        for n, how in [(1, "the right-arrow key"), (2, "the next button")]:
            if n == 2:
                driver.find_element(By.ID, "next").click()
                if step() != "2":
                    fail(f"the next button did not step forward (step {step()!r})")
            if board() == seen[-1]:
                fail(f"{how} did not change the board")
            seen.append(board())
            shots.append(look(driver, os.path.join(out, f"step{n}.png")))
            moved = differing(shots[-2], shots[-1])
            if moved < 50:
                fail(f"step{n}.png: the screenshot hardly changed ({moved} pixels) after {how}")
            print(f"browser check: {how}: step {n}, '{caption()}', {moved} pixels changed")
        bad = errors(driver)
        if bad:
            fail(f"the page logged errors while stepping: {bad}")
        driver.get("file://" + os.path.abspath(os.path.join(run, "index.html")))
        if "lengths.svg" not in driver.page_source:
            fail("the run's index.html does not link its plot")
        look(driver, os.path.join(out, "index.png"))
        bad = errors(driver)
        if bad:
            fail(f"the run's index.html logged errors: {bad}")
        print(f"browser check: {driver.capabilities.get('browserVersion')}: replay page and index "
              f"passed; screenshots in {out}")
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--install", action="store_true", help="install chromium, chromium-driver and the venv, and exit")
    ap.add_argument("--cowrie", default=os.path.join(os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target")), "debug", "cowrie"))
    ap.add_argument("--out", default=None, help="where the pages and screenshots go (default: the target directory's browser-check/)")
    args = ap.parse_args()
    if not in_venv():
        install()
        if args.install:
            print("chromium, chromium-driver and selenium are installed")
            return
        os.execv(VENV_PY, [VENV_PY] + sys.argv)
    if args.install:
        print("chromium, chromium-driver and selenium are installed")
        return
    out = args.out or os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(args.cowrie))), "browser-check")
    check(os.path.abspath(args.cowrie), out)


if __name__ == "__main__":
    main()
