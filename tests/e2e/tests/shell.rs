//! The app shell loads from the release build and is usable before any configuration.

use autoui_e2e::browser::BrowserOptions;
use autoui_e2e::cdp::cdp;
use autoui_e2e::with_app;
use serde_json::json;

#[tokio::test]
async fn the_shell_shows_header_empty_canvas_chat_and_settings_without_console_errors() {
    with_app(BrowserOptions::default(), |page| async move {
        page.open("/").await;

        page.wait_for_text("[data-testid=header]", "autoui").await;
        page.wait_for_text("[data-testid=canvas-empty]", "Your dashboard is empty").await;
        assert!(page.is_displayed("[data-testid=chat-input]").await, "the chat input is visible");
        assert!(page.is_displayed("[data-testid=send]").await, "the send button is visible");

        assert!(!page.is_displayed("[data-testid=settings]").await, "settings start closed");
        page.click("[data-testid=open-settings]").await;
        // The drawer's code comes in a chunk of its own, fetched at the first press at the latest.
        page.find("[data-testid=settings]").await;
        assert!(page.is_displayed("[data-testid=settings]").await, "settings open on click");
        page.wait_until("focus moves into the settings drawer", "return document.activeElement?.getAttribute('aria-label') === 'Close settings';").await;
        for field in ["settings-provider", "settings-model", "settings-base-url", "settings-api-key"] {
            assert!(page.is_displayed(&format!("[data-testid={field}]")).await, "{field} is in the settings drawer");
        }

        let errors = page.console_errors().await;
        assert!(errors.is_empty(), "console errors: {errors:#?}");
    })
    .await;
}

#[tokio::test]
async fn settings_survive_a_reload_and_the_key_field_is_masked() {
    with_app(BrowserOptions::default(), |page| async move {
        page.open("/").await;
        page.click("[data-testid=open-settings]").await;
        let model = page.find("[data-testid=settings-model]").await;
        model.clear().await.expect("clear model");
        model.send_keys("my-model-7\n").await.expect("type model");
        page.type_into("[data-testid=settings-api-key]", "sk-test-123\t").await;
        assert_eq!(
            page.find("[data-testid=settings-api-key]").await.attr("type").await.expect("type attribute").as_deref(),
            Some("password"),
            "the key is masked"
        );

        page.reload().await;
        page.click("[data-testid=open-settings]").await;
        let model = page.find("[data-testid=settings-model]").await.prop("value").await.expect("model value");
        assert_eq!(model.as_deref(), Some("my-model-7"));
        let key = page.find("[data-testid=settings-api-key]").await.prop("value").await.expect("key value");
        assert_eq!(key.as_deref(), Some("sk-test-123"));
    })
    .await;
}

/// The release build ships its stylesheets and scripts minified with their integrity hashes computed
/// again (scripts/minify-assets.sh): the browser must accept every one, and their rules must apply.
#[tokio::test]
async fn every_stylesheet_of_the_shell_and_the_gallery_loads_and_applies() {
    with_app(BrowserOptions::default(), |page| async move {
        page.open("/#/gallery").await;
        page.wait_for_count("[data-testid^=gallery-item-]", 26).await;

        let sheets = page
            .eval(
                "return [...document.styleSheets].map((sheet) => [sheet.href || 'inline', sheet.cssRules.length]);",
                vec![],
            )
            .await;
        let sheets = sheets.as_array().expect("a list of stylesheets");
        for name in ["app-", "_common-", "widgets.css"] {
            let found = sheets.iter().find(|sheet| sheet[0].as_str().is_some_and(|href| href.contains(name)));
            let rules = found.and_then(|sheet| sheet[1].as_u64());
            assert!(rules.is_some_and(|rules| rules > 0), "{name} is loaded with its rules: {sheets:?}");
        }
        // tokens.css, base.css and shell.css, inlined in index.html.
        let inline = sheets.iter().filter(|sheet| sheet[0] == "inline" && sheet[1].as_u64().is_some_and(|rules| rules > 0)).count();
        assert!(inline >= 3, "the three inlined stylesheets are there with their rules: {sheets:?}");
        let styled = page
            .eval(
                "const shown = (css, property) => getComputedStyle(document.querySelector(css))[property];
                 return [shown('.au-app', 'display'), shown('.au-gallery-page__grid', 'display'),
                         shown('.au-header', 'borderBottomStyle')];",
                vec![],
            )
            .await;
        assert_eq!(styled[0], "flex", "the app's frame comes from shell.css");
        assert_eq!(styled[1], "grid", "the gallery's grid comes from widgets.css");
        assert_eq!(styled[2], "solid", "the header keeps its rule");

        let errors = page.console_errors().await;
        assert!(errors.is_empty(), "console errors: {errors:#?}");
    })
    .await;
}

/// The shell's frame and header are styled from `index.html` itself: a page whose main stylesheet is
/// slow (here, never arrives) still shows the app's header and layout as they should look, and the
/// app runs.
#[tokio::test]
async fn the_shell_is_styled_before_the_main_stylesheet_arrives() {
    with_app(BrowserOptions::default(), |page| async move {
        let client = page.client();
        cdp(client, "Network.enable", json!({})).await.expect("enable the network domain");
        cdp(client, "Network.setBlockedURLs", json!({ "urls": ["*/app-*.css", "*/_common-*.css"] }))
            .await
            .expect("block the main stylesheets");
        page.open("/").await;
        page.wait_for_text("[data-testid=header]", "autoui").await;
        page.wait_for_text("[data-testid=canvas-empty]", "Your dashboard is empty").await;

        let styled = page
            .eval(
                "const shown = (css, property) => getComputedStyle(document.querySelector(css))[property];
                 const main = [...document.styleSheets].some((sheet) => {
                   try { return (sheet.href || '').includes('/app-') && sheet.cssRules.length > 0; } catch (e) { return false; }
                 });
                 return [main, shown('.au-app', 'display'), shown('.au-header', 'borderBottomStyle'),
                         shown('.au-header', 'display'), shown('.au-header__title', 'fontWeight'),
                         shown('body', 'backgroundColor') !== 'rgba(0, 0, 0, 0)'];",
                vec![],
            )
            .await;
        assert_eq!(styled[0], false, "app.css really did not load: {styled}");
        assert_eq!(styled[1], "flex", "the page's frame is laid out: {styled}");
        assert_eq!(styled[2], "solid", "the header has its border: {styled}");
        assert_eq!(styled[3], "flex", "the header's items sit in a row: {styled}");
        assert_eq!(styled[4], "700", "the brand is bold: {styled}");
        assert_eq!(styled[5], true, "the page has its theme's background: {styled}");
    })
    .await;
}

/// On a phone-width screen the notices sit at the top of the main area. A drawer or the chat opened
/// there keeps its header in sight under them: its close button is what a tap reaches, and the notice
/// still shows.
#[tokio::test]
async fn on_a_narrow_screen_a_notice_leaves_an_open_panels_close_button_in_reach() {
    with_app(BrowserOptions::default(), |page| async move {
        page.client().set_window_size(420, 760).await.expect("narrow the window");
        // A link that cannot be opened leaves an error notice, which stays until it is dismissed.
        page.open("/#hs=not-a-dashboard").await;
        page.wait_for_text("[data-testid=notices]", "This share link could not be opened").await;

        let clear_of_the_notice = |panel: &'static str| {
            format!(
                "const header = document.querySelector('{panel}').firstElementChild.getBoundingClientRect();
                 const notice = document.querySelector('[data-testid=notice]').getBoundingClientRect();
                 return notice.height > 0 && notice.top >= header.bottom;"
            )
        };
        page.click("[data-testid=open-console]").await;
        page.find("[data-testid=console]").await;
        assert_eq!(page.eval(&clear_of_the_notice("[data-testid=console]"), vec![]).await, true, "the notice shows below the console's header");
        // WebDriver refuses a click on a covered element ("element click intercepted").
        page.click("[aria-label='Close console']").await;
        page.wait_until("the console closes", "return !document.querySelector('[data-testid=console]')?.checkVisibility();").await;

        page.click("[data-testid=open-chat]").await;
        assert!(page.is_displayed("[data-testid=chat-input]").await, "the chat opens over the canvas");
        assert_eq!(page.eval(&clear_of_the_notice("[data-testid=chat]"), vec![]).await, true, "the notice shows below the chat's header");
        page.click("[data-testid=close-chat]").await;
        assert!(!page.is_displayed("[data-testid=chat-input]").await, "the chat closes");
        assert!(page.text("[data-testid=notices]").await.contains("could not be opened"), "the notice is still there to read");
    })
    .await;
}

/// The recipes page keeps a recipe readable at any width: its list beside the recipe while there is
/// room, above it when the page is narrow (here beside the chat in a 900 px window), never a recipe
/// squeezed into a column a few words wide.
#[tokio::test]
async fn the_recipes_page_puts_its_list_above_the_recipe_when_the_page_is_narrow() {
    with_app(BrowserOptions::default(), |page| async move {
        page.open("/#/recipes").await;
        page.click("[data-testid=recipe-stat-card]").await;
        page.wait_for_text("[data-testid=recipes]", "An enriched KPI card").await;
        let layout = "const box = (css) => document.querySelector(css).getBoundingClientRect();
                      const list = box('.au-recipes__list'), detail = box('.au-recipes__detail'), page = box('[data-testid=recipes]');
                      return { beside: detail.left >= list.right - 1 && detail.top < list.bottom,
                               below: detail.top >= list.bottom - 1, detail: Math.round(detail.width), page: Math.round(page.width) };";
        let wide = page.eval(layout, vec![]).await;
        assert_eq!(wide["beside"], true, "with room, the list is beside the recipe: {wide}");

        page.client().set_window_size(900, 900).await.expect("narrow the window");
        assert!(page.is_displayed("[data-testid=chat-input]").await, "the chat stays open beside the page");
        page.wait_until("the page narrows", "return document.querySelector('[data-testid=recipes]').getBoundingClientRect().width < 640;").await;
        let narrow = page.eval(layout, vec![]).await;
        assert_eq!(narrow["below"], true, "narrow, the recipe comes below the list: {narrow}");
        assert_eq!(narrow["detail"], narrow["page"], "and takes the page's whole width: {narrow}");
    })
    .await;
}

/// On a phone the recipes list is a short box above the recipe: it shows the recipe chosen when the
/// page opens (not only the first few), and a recipe chosen after one was read to its end is shown
/// from its top.
#[tokio::test]
async fn on_a_phone_the_recipes_list_shows_the_chosen_recipe_and_a_new_one_is_read_from_its_top() {
    with_app(BrowserOptions::default(), |page| async move {
        page.client().set_window_size(420, 860).await.expect("a phone's width");
        page.open("/#/recipes").await;
        page.wait_for_text("[data-testid=recipe-detail] h2", "stat-card").await;
        page.wait_until(
            "the chosen recipe shows in the list",
            "const list = document.querySelector('.au-recipes__list').getBoundingClientRect();
             const item = document.querySelector('[data-testid=recipe-stat-card]').getBoundingClientRect();
             return item.top >= list.top && item.bottom <= list.bottom;",
        )
        .await;

        let read_to_the_end = "const detail = document.querySelector('.au-recipes__detail');
                               detail.scrollTop = detail.scrollHeight; return detail.scrollTop;";
        assert!(page.eval(read_to_the_end, vec![]).await.as_f64().unwrap_or_default() > 100.0, "the recipe is longer than its box");
        page.click("[data-testid=recipe-kv]").await;
        page.wait_for_text("[data-testid=recipe-detail] h2", "kv").await;
        assert_eq!(
            page.eval("return document.querySelector('.au-recipes__detail').scrollTop;", vec![]).await,
            json!(0),
            "the new recipe is shown from its top"
        );
    })
    .await;
}
