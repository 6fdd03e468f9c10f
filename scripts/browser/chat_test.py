"""The demo web chat (web/demo/, built on web/stickers.js alone) in a real, headless Chromium, as issue 49 asks: the
picker renders the demo groups; a typo finds a sticker; a sticker sent shows in the transcript and is counted; an
upload reaches an open page within 2 s without a reload; ten tabs hold one event stream; a page on another origin works
with --cors-origin and is refused without; a second open with stickerd stopped shows the picker from IndexedDB; no
console errors; screenshots at 390 px wide.
Usage: chat_test.py API PAGE FOREIGN_PAGE ADMIN_TOKEN SCREENSHOT_DIR STICKERD_PID (scripts/browser-test.sh runs it):
API is stickerd; PAGE a static host of the demo chat whose origin stickerd allows; FOREIGN_PAGE the same files on an
origin it does not."""
import json
import os
import signal
import sys
import time
import urllib.request
import uuid

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.support.ui import WebDriverWait

sys.path.insert(0, os.path.dirname(__file__))
from pngs import disc_png  # noqa: E402

API, PAGE, FOREIGN, TOKEN, SHOTS, PID = sys.argv[1:7]
WAIT = 30


def api(path, method="GET", body=None, headers=None):
    request = urllib.request.Request(API + path, method=method, data=body, headers=headers or {})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.load(response)


def admin(path, method="GET", body=None, content_type="application/json"):
    return api(path, method, body, {"Authorization": f"Bearer {TOKEN}", "Content-Type": content_type})


def upload(group, name, colour):
    boundary = uuid.uuid4().hex
    parts = [(b'name="name"', name.encode()), (b'name="description"', f"{name}, just uploaded".encode()),
             (b'name="file"; filename="s.png"\r\nContent-Type: image/png', disc_png(408, 408, colour))]
    body = b"".join(b"--" + boundary.encode() + b"\r\nContent-Disposition: form-data; " + head + b"\r\n\r\n" + data
                    + b"\r\n" for head, data in parts) + b"--" + boundary.encode() + b"--\r\n"
    return admin(f"/v1/admin/groups/{group}/stickers", "POST", body, f"multipart/form-data; boundary={boundary}")


def open_streams():
    metrics = urllib.request.urlopen(API + "/metrics", timeout=30).read().decode()
    line = next(line for line in metrics.splitlines() if line.startswith("event_streams_open "))
    return float(line.split()[1])


def start_browser():
    options = webdriver.ChromeOptions()
    options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=390,844"]:
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")), options=options)
    # A phone's width, whatever the headless window's minimum.
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": 390, "height": 844, "deviceScaleFactor": 3, "mobile": True})
    return driver


driver = start_browser()
wait = WebDriverWait(driver, WAIT)
shots = []


def shot(name):
    path = os.path.join(SHOTS, f"chat-{len(shots) + 1:02d}-{name}.png")
    driver.save_screenshot(path)
    shots.append(path)


def errors(allowed=()):
    """SEVERE console lines since the last call, but those naming one of `allowed`."""
    return [e["message"] for e in driver.get_log("browser")
            if e["level"] == "SEVERE" and not any(a in e["message"] for a in allowed)]


def count(selector):
    return len(driver.find_elements(By.CSS_SELECTOR, selector))


def until(condition, what, timeout=WAIT):
    try:
        return WebDriverWait(driver, timeout, poll_frequency=0.05).until(lambda _: condition())
    except Exception:
        raise AssertionError(f"not within {timeout} s: {what}")


def open_picker(url):
    """Opens the chat and its picker on the first group it may show (the console's test, run before, leaves a premium
    group that may come first)."""
    driver.get(url)
    until(lambda: count("#tabs button") >= 3, "the picker's group tabs")
    driver.find_element(By.ID, "toggle").click()
    select_open_group()


def select_open_group():
    """Shows the first group the picker may show, and waits for its stickers."""
    for _ in range(5):
        try:
            tab = next(b for b in driver.find_elements(By.CSS_SELECTOR, "#tabs button")
                       if "(locked)" not in (b.get_attribute("aria-label") or ""))
            tab.click()
            break
        except StaleElementReferenceException:
            time.sleep(0.2)
    until(lambda: count("#grid button") >= 1, "an open group's stickers")


failures = []


def step(name, body, quiet=True):
    """Runs one scenario; `quiet`: the console must have logged no error meanwhile."""
    try:
        body()
        logged = errors() if quiet else []
        assert logged == [], f"console errors: {logged}"
        print(f"ok   {name}")
    except Exception as error:  # noqa: BLE001: every step reports, then the run fails
        failures.append(name)
        print(f"FAIL {name}: {error}")
        shot(f"failed-{name.replace(' ', '-')}")


page = f"{PAGE}/demo/?api={API}"


def renders():
    admin("/v1/admin/groups/chocolate", "PATCH", json.dumps({"productId": "com.example.chocolate"}).encode())
    open_picker(page)
    tabs = [b.get_attribute("aria-label") for b in driver.find_elements(By.CSS_SELECTOR, "#tabs button")]
    assert any("Chocolate" in t and "locked" in t for t in tabs), tabs
    images = driver.find_elements(By.CSS_SELECTOR, "#grid img")
    assert all(i.get_attribute("width") and i.get_attribute("height") and i.get_attribute("alt") for i in images)
    assert all(i.get_attribute("loading") == "lazy" and i.get_attribute("decoding") == "async" for i in images)
    driver.find_element(By.CSS_SELECTOR, "#tabs button[data-group='chocolate']").click()
    until(lambda: "com.example.chocolate" in driver.find_element(By.ID, "grid").text, "the lock and its product")
    shot("locked-group")
    select_open_group()
    shot("picker")


def labels():
    return [(b.get_attribute("aria-label") or "").lower() for b in driver.find_elements(By.CSS_SELECTOR, "#grid button")]


def typo():
    # Lollipop is in the Crunchy group, not in Chewy, the one shown: only the search can bring it.
    driver.find_element(By.CSS_SELECTOR, "#tabs button[data-group='chewy']").click()
    until(lambda: any("caramel" in label for label in labels()), "Chewy's stickers")
    shown = labels()
    assert not any("lollipop" in label for label in shown), shown
    box = driver.find_element(By.ID, "search")
    box.send_keys("lolipop")
    until(lambda: any("lollipop" in label for label in labels()), "Lollipop for 'lolipop'")
    shot("search-typo")
    box.send_keys(*["\ue003"] * 7)  # backspace: the box is empty again, the group's stickers come back
    until(lambda: labels() == shown, "the group's stickers after the search was cleared")


def click_first_sticker():
    """The grid's first sticker, clicked; the grid may be drawn again meanwhile (a revalidation), so a stale button is
    looked up again."""
    for _ in range(5):
        try:
            first = driver.find_element(By.CSS_SELECTOR, "#grid button")
            sticker = first.get_attribute("data-sticker")
            first.click()
            return sticker
        except StaleElementReferenceException:
            time.sleep(0.2)
    raise AssertionError("the grid kept being drawn again")


def sent_and_counted():
    select_open_group()
    sticker = click_first_sticker()
    until(lambda: count(f"#transcript li.sticker[data-sticker='{sticker}']") == 1, "the sticker in the transcript")
    shot("sent")
    # The page hides (a navigation): its batch goes by sendBeacon; stickerd writes counts every second here.
    driver.get("about:blank")
    today = time.strftime("%Y-%m-%d", time.gmtime())

    def counted():
        stats = admin(f"/v1/admin/stats/stickers?from={today}&to={today}")
        return any(row.get("id") == sticker and row.get("total", 0) >= 1 for row in stats.get("stickers", stats.get("rows", [])))
    until(counted, "the sent event in the usage stats")


def upload_appears():
    open_picker(page)
    time.sleep(2)  # the leader's stream is open (a tab claims after a beat, its EventSource then connects)
    before = count("#grid button")
    group = driver.find_element(By.CSS_SELECTOR, "#tabs button[aria-selected='true']").get_attribute("data-group")
    started = time.monotonic()
    upload(group, "Fresh toffee", (200, 120, 40))
    until(lambda: count("#grid button") == before + 1, "the uploaded sticker in the open page", timeout=2)
    print(f"     the upload showed after {time.monotonic() - started:.2f} s")
    shot("uploaded")


def one_revalidation():
    """A revalidation when nothing changed: one request to the service, answered 304 (revalidate() says false)."""
    changed, requests = driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        const transport = window.stickerCatalog.transport;
        const fetch = transport.fetch;
        const sent = [];
        transport.fetch = (url, init) => fetch(url, init).then((r) => (sent.push(r.status), r));
        window.stickerCatalog.revalidate().then((changed) => {
            transport.fetch = fetch;
            done([changed, sent]);
        });
    """)
    assert changed is False and requests == [304], f"changed: {changed}, answers: {requests}"
    print(f"     a revalidation with nothing changed: {len(requests)} request, answered {requests[0]}")


def ten_tabs():
    base = open_streams()
    first = driver.current_window_handle
    for _ in range(9):
        driver.switch_to.new_window("tab")
        driver.get(page)
        until(lambda: count("#tabs button") >= 3, "a tab's picker")
    time.sleep(4)  # every tab has heard the leader, or claimed
    # Each tab says whether it holds an EventSource; the service counts what it holds (a stream a page left is
    # counted until a heartbeat finds it gone, so the service's count may not fall at once, but it must not grow).
    holding = 0
    for handle in driver.window_handles:
        driver.switch_to.window(handle)
        holding += driver.execute_script("return window.stickerCatalog?.source ? 1 : 0")
    streams = open_streams()
    assert holding == 1, f"{holding} of ten tabs hold an event stream"
    assert 1 <= streams <= base, f"{streams} streams open with ten tabs, {base} with one"
    for handle in driver.window_handles:
        if handle != first:
            driver.switch_to.window(handle)
            driver.close()
    driver.switch_to.window(first)
    print(f"     ten tabs: {holding} holds the event stream; the service counts {streams:.0f} open ({base:.0f} before)")


def foreign_refused():
    driver.get_log("browser")
    driver.get(f"{FOREIGN}/demo/?api={API}")
    until(lambda: "Offline" in driver.find_element(By.ID, "status").text, "the refusal shown")
    assert count("#tabs button") == 0, "a page on an origin not given rendered the catalog"
    assert any("CORS" in e or "Access-Control" in e for e in errors()), "no CORS refusal in the console"
    shot("foreign-origin-refused")


def offline_second_open():
    open_picker(page)
    os.kill(int(PID), signal.SIGTERM)
    until(lambda: not _alive(), "stickerd stopped")
    driver.get_log("browser")
    started = time.monotonic()
    driver.get(page)
    until(lambda: count("#tabs button") >= 3, "the picker from IndexedDB with stickerd stopped")
    elapsed = driver.execute_script(
        "return performance.getEntriesByName('stickercatalog:rendered')[0]?.startTime ?? null")
    print(f"     offline second open rendered {time.monotonic() - started:.2f} s after the navigation"
          + (f" (page clock: {elapsed:.0f} ms)" if elapsed is not None else ""))
    assert driver.execute_script("return document.body.dataset.rendered") == "storage"
    shot("offline-from-indexeddb")


def _alive():
    try:
        os.kill(int(PID), 0)
        return True
    except OSError:
        return False


try:
    step("the picker renders the demo groups, a premium one locked", renders)
    step("a typo finds the sticker", typo)
    step("a sticker sent appears in the transcript and is counted", sent_and_counted)
    step("an upload appears in an open page within 2 s", upload_appears)
    step("a revalidation with nothing changed costs one request, a 304", one_revalidation)
    step("ten tabs hold one event stream", ten_tabs)
    step("a page on an origin not given is refused", foreign_refused, quiet=False)
    step("the second open with stickerd stopped renders from IndexedDB", offline_second_open, quiet=False)
finally:
    driver.quit()
print(f"screenshots: {', '.join(shots)}")
if failures:
    print(f"{len(failures)} of 8 chat scenarios failed: {', '.join(failures)}")
    sys.exit(1)
print("8 chat scenarios passed")
