"""Targeted rollout (issue 37) in the console: the Audience panel of a group (countries found by typing, a refused
version range shown beside its fields, a 10% share saved, raised to 50%), the group list's summary of who sees it,
and the preview as a caller in or out of the audience. console_test.py runs these scenarios with its own helpers:
`scenarios(t)` takes that module (its driver, find, text_in, go, fill, check, api, shot...) and returns them, in
order."""
import os
import shutil

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys


def scenarios(t):
    group, token = t.GROUP, t.TOKEN

    def stored():
        return t.api(f"/v1/admin/groups/{group}", token).get("audience")

    def preview_ids(query):
        return [g["id"] for g in t.api(f"/v1/admin/manifest?{query}&scale=2", token)["groups"]]

    def shown_ids():
        found = t.driver.find_elements(By.CSS_SELECTOR, "#preview-result [data-group]")
        return [e.get_attribute("data-group") for e in found]

    def panel_shot(name):
        """The Audience panel alone, numbered with the other screenshots and also kept as audience.png."""
        path = os.path.join(t.SHOTS, f"{len(t.shots) + 1:02d}-{name}.png")
        t.driver.set_window_size(1280, 1500)  # the whole panel in view: an element's picture is cut at the window
        try:
            panel = t.find("#audience", "visible")
            t.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", panel)
            panel.screenshot(path)
            t.shots.append(path)
            shutil.copyfile(path, os.path.join(t.SHOTS, "audience.png"))
        finally:
            t.driver.set_window_size(1280, 900)

    def audience_rollout():
        t.go(f"/groups/{group}", "Browser test")
        t.text_in("#audience-now", "Who sees it now: Everyone")
        t.check(stored() is None, f"the group starts without an audience: {stored()!r}")
        search = t.find("#audience-country-filter")
        t.fill(search, "Canada")
        search.send_keys(Keys.ENTER)  # Enter picks the match, it does not save the form
        t.find('#audience .chip[data-code="CA"]')
        t.fill(search, "united states")
        t.find('#audience-country-list li[data-code="US"] input', "clickable").click()
        t.find('#audience .chip[data-code="US"]')
        hidden = t.driver.execute_script(
            "return document.querySelector('#audience-country-list li[data-code=\"FR\"]').hidden")
        t.check(hidden, "typing narrows the list: France is not listed for 'united states'")
        t.fill(t.find("#audience-percentage"), "10")
        t.text_in("#audience-raise", "Limit to 10%")
        # A range whose minimum exceeds its maximum is refused by the service, shown beside the fields, not stored.
        t.fill(t.find("input[name=minimumVersion]"), "3.0")
        t.fill(t.find("input[name=maximumVersion]"), "2.0")
        t.clear_status()
        t.find("#audience-save").click()
        t.find("#audience-error-appVersions", "visible")
        t.text_in("#status", "Saving the audience failed")
        invalid = t.find("input[name=minimumVersion]").get_attribute("aria-invalid")
        t.check(invalid == "true", f"the field is marked invalid: aria-invalid={invalid!r}")
        t.check(stored() is None, f"a refused audience stores nothing: {stored()!r}")
        t.shot("audience-refused")
        t.fill(t.find("input[name=minimumVersion]"), "")
        t.fill(t.find("input[name=maximumVersion]"), "")
        t.clear_status()
        t.find("#audience-save").click()
        t.text_in("#status", "Saved the audience of Browser test: CA, US · 10%")
        t.check(not t.find("#audience-error-appVersions").is_displayed(), "a saved audience clears the errors")
        audience = stored()
        t.check(audience is not None and sorted(audience.get("countries") or []) == ["CA", "US"]
                and audience.get("percentage") == 10
                and not audience.get("platforms") and not audience.get("appVersions"),
                f"the service stored countries CA and US at 10%: {audience!r}")
        t.go("/groups", "Groups")
        t.text_in(f'.group-list li[data-id="{group}"] [data-audience]', "CA, US · 10%")
        others = [e.text for e in t.find(".group-list li:not([data-id=\"%s\"]) [data-audience]" % group, "all")]
        t.check(all("Everyone" in text for text in others), f"the other groups are for everyone: {others}")
        t.shot("groups-audience")

    def audience_raise():
        t.go(f"/groups/{group}", "Browser test")
        t.text_in("#audience-now", "CA, US · 10%")
        box = t.find("#audience-percentage")
        t.check(box.get_property("value") == "10", f"the panel shows the stored share: {box.get_property('value')!r}")
        t.fill(box, "5")
        t.text_in("#audience-lowering", "takes the group away from installations")
        t.text_in("#audience-raise", "Lower to 5%")
        t.fill(box, "50")
        t.text_in("#audience-raise", "Raise to 50%")
        t.check(t.find("#audience-lowering").text == "", "raising warns of nothing")
        t.clear_status()
        t.find("#audience-raise", "clickable").click()
        t.text_in("#status", "Raised Browser test to 50%")
        t.text_in("#audience-now", "CA, US · 50%")
        audience = stored()
        t.check(audience.get("percentage") == 50 and sorted(audience.get("countries") or []) == ["CA", "US"],
                f"raising changed the share only: {audience!r}")
        t.check(not t.find("#audience-raise").is_enabled(), "at the stored share there is nothing to raise")
        panel_shot("audience-panel")

    def audience_preview():
        inside, outside = preview_ids("country=US&bucket=0"), preview_ids("country=FR&bucket=0")
        t.check(group in inside and group not in outside, f"the service shows it in US, not FR: {inside} / {outside}")
        t.go(f"/groups/{group}", "Browser test")
        t.find("#audience-preview", "clickable").click()  # as a client inside the audience: CA, bucket 0
        t.text_in("#preview-result .summary", "Anonymous, in CA, bucket 0:")
        t.check(shown_ids() == [group], f"the panel's preview link shows the group to a caller inside: {shown_ids()}")
        t.go("/preview?country=US&bucket=0", "Preview")
        t.text_in("#preview-result .summary", "Anonymous, in US, bucket 0:")
        t.find(f'#preview-result [data-group="{group}"]')
        t.check(shown_ids() == inside, f"the preview shows what the service answers: {shown_ids()} vs {inside}")
        t.shot("preview-audience-us")
        t.find("select[name=country] option[value=FR]").click()
        t.text_in("#preview-result .summary", "Anonymous, in FR, bucket 0:")
        t.check(group not in shown_ids(), f"a caller in FR does not see it: {shown_ids()}")
        t.check(shown_ids() == outside, f"the preview shows what the service answers: {shown_ids()} vs {outside}")
        # 50% shows to buckets 0 to 499 only.
        for bucket, visible in [(499, True), (500, False)]:
            t.go(f"/preview?country=CA&bucket={bucket}", "Preview")
            t.text_in("#preview-result .summary", f"in CA, bucket {bucket}:")
            t.check((group in shown_ids()) == visible, f"bucket {bucket} {'sees' if visible else 'misses'} it at 50%")

    def audience_everyone():
        t.go(f"/groups/{group}", "Browser test")
        t.find("#audience-everyone", "clickable").click()
        t.find("dialog.confirm", "visible")
        t.clear_status()
        t.find("dialog.confirm button.danger").click()
        t.text_in("#status", "Browser test is shown to everyone")
        t.text_in("#audience-now", "Who sees it now: Everyone")
        t.check(stored() is None, f"Everyone clears the audience: {stored()!r}")
        t.check(t.manifest_group() is not None, "an anonymous client sees the group again")

    return [audience_rollout, audience_raise, audience_preview, audience_everyone]
