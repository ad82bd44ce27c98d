def test_admin_login_page_opens_in_chromium(page, live_server):
    page.goto(live_server.url + "/admin/login/")
    assert "Log in" in page.title()
