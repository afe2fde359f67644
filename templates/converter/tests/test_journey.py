"""A person's first minute with the converter, in a real headless browser."""

import pytest


# The template's own tabs and pairs: make may open the person's app on another category
# (a converter for cooking), and these tests are about converting, not about which tab is first.
@pytest.fixture(autouse=True)
def starter_tabs(settings):
    settings(categories=["length", "weight", "volume", "temperature", "area"], pairs={})


def test_convert_save_reload_and_it_is_still_there(page, settings):
    page.locator("#value").fill("5")
    page.wait_for_function("document.querySelector('[data-result]').textContent.includes('3.1069 mi')")
    page.get_by_role("button", name="Save").click()
    page.locator(".saved-item").first.wait_for()

    page.locator("#expression").fill("12 × (3 + 4)")
    page.locator("#expression").press("Enter")
    page.wait_for_function("document.querySelectorAll('.saved-item').length === 2")

    page.reload()
    page.locator(".saved-item").first.wait_for()
    items = page.locator(".saved-item").all_inner_texts()
    assert items[0].startswith("12 × (3 + 4) = 84") and items[1].startswith("5 km = 3.1069 mi")

    # In Tagalog with imperial units, temperatures open from Fahrenheit.
    settings(language="tl", units="imperial")
    page.reload()
    page.get_by_role("tab", name="Temperatura").click()
    page.locator("#value").fill("212")
    page.wait_for_function("document.querySelector('[data-result]').textContent.includes('100 °C')")
    assert page.get_by_role("button", name="I-save").is_visible()
