//! The canvas by hand: widgets added from the gallery, moved with the keyboard, undone, restored
//! after a reload, saved as a named dashboard, and shared read-only with another browser; a widget
//! placed at its default size grown to show its content; text for screen readers that never gives a
//! frame a scrollbar; a canvas too narrow for its columns showing its widgets in reading order; Tab
//! going through the widgets in the order they are laid out, and staying on the canvas when one is
//! removed from the keyboard; printing the dashboard alone.

use autoui_e2e::browser::BrowserOptions;
use autoui_e2e::with_app;
use fantoccini::Locator;
use serde_json::json;

async fn widget_count(page: &autoui_e2e::page::Page) -> usize {
    page.client().find_all(Locator::Css("[data-testid=widget]")).await.map(|w| w.len()).unwrap_or(0)
}

#[tokio::test]
async fn widgets_added_by_hand_survive_a_reload_and_undo_removes_the_last_one() {
    with_app(BrowserOptions::default(), |page| async move {
        page.open("/#/gallery").await;
        page.click("[data-testid=gallery-add-stat-card]").await;
        page.click("[data-testid=gallery-add-kv]").await;
        page.open("/#/").await;
        page.find("[data-widget-type=stat-card]").await;
        page.find("[data-widget-type=kv]").await;
        assert_eq!(widget_count(&page).await, 2);
        let badge = page.text("[data-widget-type=kv] [data-testid=provenance]").await;
        assert_eq!(badge, "you", "a widget added by hand says the user made it");

        page.reload().await;
        page.find("[data-widget-type=kv]").await;
        assert_eq!(widget_count(&page).await, 2, "the canvas is restored after a reload");

        page.click("[data-testid=undo]").await;
        // Undo history is per page load: after the reload there is nothing to undo yet.
        assert_eq!(widget_count(&page).await, 2);
        page.click("[data-widget-type=kv] [data-testid=widget-remove]").await;
        assert_eq!(widget_count(&page).await, 1);
        page.click("[data-testid=undo]").await;
        page.find("[data-widget-type=kv]").await;
        assert_eq!(widget_count(&page).await, 2, "undo brings the removed widget back");

        let errors = page.console_errors().await;
        assert!(errors.is_empty(), "console errors: {errors:#?}");
    })
    .await;
}

#[tokio::test]
async fn arrow_keys_move_a_focused_widget_on_the_grid() {
    with_app(BrowserOptions::default(), |page| async move {
        page.open("/#/gallery").await;
        page.click("[data-testid=gallery-add-stat]").await;
        page.open("/#/").await;
        let frame = page.find("[data-widget-type=stat]").await;
        let column = |style: String| style.split("grid-column:").nth(1).and_then(|s| s.split('/').next()).map(|s| s.trim().to_owned());
        let before = column(frame.attr("style").await.unwrap().unwrap_or_default());
        page.eval("document.querySelector('[data-widget-type=stat]').focus()", vec![]).await;
        frame.send_keys("\u{e014}").await.expect("press ArrowRight");
        let after = column(page.find("[data-widget-type=stat]").await.attr("style").await.unwrap().unwrap_or_default());
        assert_eq!(before.as_deref(), Some("1"));
        assert_eq!(after.as_deref(), Some("2"), "ArrowRight moves the widget one column");
    })
    .await;
}

#[tokio::test]
async fn a_share_link_opens_the_same_dashboard_read_only_in_a_fresh_browser() {
    let link = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
    let written = link.clone();
    with_app(BrowserOptions::default(), |page| async move {
        page.open("/#/gallery").await;
        page.click("[data-testid=gallery-add-stat-card]").await;
        page.open("/#/").await;
        let value = page.share_link().await;
        assert!(value.contains("#hs="), "the share link carries the dashboard in its fragment: {value}");
        *written.lock().unwrap() = value;
    })
    .await;

    let link = link.lock().unwrap().clone();
    with_app(BrowserOptions::default(), |page| async move {
        // A new app server and a new profile: only the link carries the dashboard.
        let fragment = link.split_once('#').map(|(_, f)| f.to_owned()).unwrap_or_default();
        page.open(&format!("/#{fragment}")).await;
        page.find("[data-widget-type=stat-card]").await;
        page.find("[data-testid=read-only-banner]").await;
        assert!(!page.is_displayed("[data-testid=widget-remove]").await, "a shared dashboard has no edit tools");
        assert_eq!(print_dialogs_after_clicking(&page, "[data-testid=print-shared]").await, 1, "a shared dashboard prints as it is");
        page.click("[data-testid=present-shared]").await;
        page.wait_until("a shared dashboard is presented", "return !!document.querySelector('.au-app--presenting') && !document.querySelector('[data-testid=read-only-banner]').checkVisibility();").await;
        page.click("[data-testid=present-exit]").await;
        page.wait_until("and given back", "return document.querySelector('[data-testid=read-only-banner]').checkVisibility();").await;
        page.click("[data-testid=make-copy]").await;
        page.find("[data-testid=widget-remove]").await;
    })
    .await;
}

/// Every `.au-visually-hidden` element (text for screen readers) whose containing block is outside
/// its nearest scrolling ancestor, in the elements `roots` selects: such an element
/// still takes room in that outer block's scrollable area, so a frame grows a scrollbar for text
/// nobody sees.
const ESCAPED_HIDDEN_TEXT: &str = r#"
    const escaped = [];
    for (const root of document.querySelectorAll(arguments[0])) {
        for (const hidden of root.querySelectorAll('.au-visually-hidden')) {
            let scroller = hidden.parentElement;
            const scrolls = (e) => /auto|scroll/.test(getComputedStyle(e).overflowX + getComputedStyle(e).overflowY);
            while (scroller && !scrolls(scroller)) scroller = scroller.parentElement;
            const block = hidden.offsetParent;
            if (scroller && block && block !== scroller && !scroller.contains(block)) {
                escaped.push(`${root.dataset.testid || root.dataset.widgetType}: "${hidden.textContent.slice(0, 40)}" in .${scroller.className}`);
            }
        }
    }
    return escaped;
"#;

/// Whether the element `css` selects scrolls (its content is taller or wider than its box).
async fn scrolls(page: &autoui_e2e::page::Page, css: &str) -> bool {
    page.eval(
        "const e = document.querySelector(arguments[0]); return e.scrollHeight > e.clientHeight + 1 || e.scrollWidth > e.clientWidth + 1;",
        vec![json!(css)],
    )
    .await
        == json!(true)
}

#[tokio::test]
async fn text_for_screen_readers_never_gives_a_frame_a_scrollbar() {
    with_app(BrowserOptions::default(), |page| async move {
        page.open("/#/gallery").await;
        page.find("[data-testid=gallery-item-trombinoscope]").await;
        // The bar chart's table of values, and the data-table's words for empty and true/false cells.
        for kind in ["chart", "data-table"] {
            assert!(
                !scrolls(&page, &format!("[data-testid=gallery-item-{kind}] .au-gallery-page__widget")).await,
                "the gallery's {kind} example fits its frame"
            );
        }
        let escaped = page.eval(ESCAPED_HIDDEN_TEXT, vec![json!("[data-testid^=gallery-item-]")]).await;
        assert_eq!(escaped, json!([]), "hidden text outside the box that scrolls it, in the gallery");

        page.click("[data-testid=gallery-add-chart]").await;
        page.click("[data-testid=gallery-add-data-table]").await;
        page.open("/#/").await;
        for kind in ["chart", "data-table"] {
            page.find(&format!("[data-widget-type={kind}] .au-frame__body")).await;
            assert!(
                !scrolls(&page, &format!("[data-widget-type={kind}] .au-frame__body")).await,
                "the {kind} widget fits its frame on the canvas"
            );
        }
        let escaped = page.eval(ESCAPED_HIDDEN_TEXT, vec![json!("[data-testid=widget]")]).await;
        assert_eq!(escaped, json!([]), "hidden text outside the box that scrolls it, on the canvas");
    })
    .await;
}

/// The rows the frame of the widget `kind` spans on the canvas grid (its placement style).
async fn rows_of(page: &autoui_e2e::page::Page, kind: &str) -> u64 {
    rows_from_of(page, kind).await.1
}

#[tokio::test]
async fn a_widget_added_at_its_default_size_grows_to_show_its_content_once() {
    // The gallery's examples of these overflow their kind's default size on a wide screen: two rows
    // of buttons, two lines of tags, a title, fields and a footer, a long timeline.
    const KINDS: [&str; 4] = ["actions", "tags", "kv", "timeline"];
    with_app(BrowserOptions::default(), |page| async move {
        page.open("/#/gallery").await;
        for kind in KINDS {
            page.click(&format!("[data-testid=gallery-add-{kind}]")).await;
        }
        page.open("/#/").await;
        for kind in KINDS {
            let body = format!("[data-widget-type={kind}] .au-frame__body");
            page.find(&body).await;
            page.wait_until(
                &format!("the {kind} widget shows its content without a scrollbar"),
                &format!("const e = document.querySelector({body:?}); return !!e.firstElementChild && e.scrollHeight <= e.clientHeight + 1;"),
            )
            .await;
        }
        let tags = rows_of(&page, "tags").await;
        assert!(tags > 1, "the tags widget grew past its default single row: {tags} rows");

        // A person's undo takes back the last widget added, not a fit; the grown sizes are saved.
        page.click("[data-testid=undo]").await;
        page.wait_until_gone("[data-widget-type=timeline]").await;
        assert_eq!(page.count("[data-testid=widget]").await, 3);
        assert_eq!(rows_of(&page, "tags").await, tags, "undoing the last add leaves the others as grown");
        page.reload().await;
        page.find("[data-widget-type=kv] .au-frame__body").await;
        assert_eq!(rows_of(&page, "tags").await, tags, "the grown size is saved");

        // A person's own size is theirs: a widget shrunk to one row stays so, scrollbar and all.
        page.eval("document.querySelector('[data-widget-type=tags]').focus()", vec![]).await;
        let frame = page.find("[data-widget-type=tags]").await;
        for _ in 1..tags {
            frame.send_keys("\u{e008}\u{e013}\u{e000}").await.expect("press Shift+ArrowUp");
        }
        page.wait_until("the tags widget is one row tall", "return /grid-row: \\d+ \\/ span 1;/.test(document.querySelector('[data-widget-type=tags]').getAttribute('style'));").await;
        page.reload().await;
        page.find("[data-widget-type=tags] .au-frame__body").await;
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
        assert_eq!(rows_of(&page, "tags").await, 1, "a size the person chose is not fitted again");
    })
    .await;
}

/// A widget added while the canvas is too narrow for its columns (a window beside the chat) keeps its
/// default size there, where the layout a fit would edit is not on screen, and is fitted to its
/// content once the canvas has its columns again.
#[tokio::test]
async fn a_widget_added_to_a_reflowed_canvas_is_fitted_once_the_canvas_has_its_columns() {
    with_app(BrowserOptions::default(), |page| async move {
        page.client().set_window_size(1200, 900).await.expect("resize the window");
        page.open("/#/gallery").await;
        page.click("[data-testid=gallery-add-tags]").await;
        page.open("/#/").await;
        page.find("[data-widget-type=tags] .au-frame__body").await;
        page.wait_until("the canvas reflows", "return document.querySelector('.au-canvas__grid').getBoundingClientRect().width < 800;").await;
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
        assert_eq!(rows_of(&page, "tags").await, 1, "no fit while the canvas is reflowed");

        page.client().set_window_size(1400, 900).await.expect("resize the window");
        page.wait_until(
            "the tags widget is fitted to its two lines of tags",
            "const e = document.querySelector('[data-widget-type=tags] .au-frame__body'); return !/span 1;/.test(e.parentElement.getAttribute('style')) && e.scrollHeight <= e.clientHeight + 1;",
        )
        .await;
        assert!(rows_of(&page, "tags").await > 1, "the fit grew it past its default single row");
    })
    .await;
}

/// The first grid row and the rows the frame of the widget `kind` spans (its placement style).
async fn rows_from_of(page: &autoui_e2e::page::Page, kind: &str) -> (u64, u64) {
    let place = page
        .eval(
            "return /grid-row: (\\d+) \\/ span (\\d+)/.exec(document.querySelector(arguments[0]).getAttribute('style')).slice(1).map(Number);",
            vec![json!(format!("[data-widget-type={kind}]"))],
        )
        .await;
    let number = |at: usize| place[at].as_u64().unwrap_or_else(|| panic!("the {kind} frame's place: {place}"));
    (number(0), number(1))
}

#[tokio::test]
async fn a_short_table_comes_down_to_its_rows_and_what_rested_on_it_comes_up() {
    // An agent shows a three-row table across the grid (default: 6 rows), fields under it and a
    // chart beside those, in one go: the table leaves no empty rows, nothing waits below a gap,
    // and the chart, which fills whatever frame it gets, keeps its size.
    const SHOW: &str = r#"
const done = arguments[arguments.length - 1];
const show = (name, params) => document.modelContext.executeTool('widget_display', { name, params });
show('data-table', { title: 'Regions', rows: [
  { region: 'North', revenue: 8800000 }, { region: 'South', revenue: 7200000 }, { region: 'East', revenue: 5100000 } ] })
  .then(() => show('kv', { title: 'Quarter', rows: [['Best region', 'North'], ['Growth', '+11.4%']] }))
  .then(() => show('chart-rich', { title: 'Share', type: 'donut', labels: ['North', 'South'], data: [ { label: 'Revenue', values: [8.8, 7.2] } ] }))
  .then(() => done('shown'), (error) => done(String(error)));"#;
    with_app(BrowserOptions::default(), |page| async move {
        page.open("/#/").await;
        // Once the page's WebMCP tools are there, the three come in one script, before any frame shows.
        page.call_tool("canvas", json!({ "action": "list" })).await;
        let shown = page.eval_async(SHOW, vec![]).await;
        assert_eq!(shown, json!("shown"));
        page.find("[data-widget-type=data-table] .au-data-table__scroll").await;
        page.find("[data-widget-type=kv] .au-kv").await;
        page.wait_until(
            "the table's frame comes down from its default six rows",
            "return /grid-row: \\d+ \\/ span [1-5];/.test(document.querySelector('[data-widget-type=data-table]').getAttribute('style'));",
        )
        .await;
        page.wait_until(
            "the fields rest on the table's new bottom edge",
            "const place = (kind) => /grid-row: (\\d+) \\/ span (\\d+)/.exec(document.querySelector(`[data-widget-type=${kind}]`).getAttribute('style')).slice(1).map(Number); \
             const [top, rows] = place('data-table'); return place('kv')[0] === top + rows;",
        )
        .await;
        let all_rows_shown = page
            .eval(
                "const e = document.querySelector('[data-widget-type=data-table] .au-data-table__scroll'); \
                 return e.querySelectorAll('tbody tr:not(.au-data-table__spacer)').length === 3 && e.scrollHeight <= e.clientHeight + 1;",
                vec![],
            )
            .await;
        assert_eq!(all_rows_shown, json!(true), "the three rows show whole, without a scrollbar");
        let kv_body = "[data-widget-type=kv] .au-frame__body";
        let kv_whole = page.eval(&format!("const e = document.querySelector({kv_body:?}); return e.scrollHeight <= e.clientHeight + 1;"), vec![]).await;
        assert_eq!(kv_whole, json!(true), "the fields show whole too");
        let (_, chart_rows) = rows_from_of(&page, "chart-rich").await;
        assert!(chart_rows >= 5, "the chart keeps at least its default five rows: {chart_rows}");

        // The fitted places are what is saved.
        let table = rows_from_of(&page, "data-table").await;
        let kv = rows_from_of(&page, "kv").await;
        page.reload().await;
        page.find("[data-widget-type=kv] .au-kv").await;
        assert_eq!(rows_from_of(&page, "data-table").await, table, "the table's fitted size is saved");
        assert_eq!(rows_from_of(&page, "kv").await, kv, "and the fields' place");
    })
    .await;
}

#[tokio::test]
async fn a_widget_sized_right_after_it_is_added_keeps_that_size() {
    // Another agent adds a tags widget (two lines of tags at its default single row) and at once
    // makes it one row tall: the fit, which comes when the frame first shows it, must not undo that.
    const ADD_THEN_SIZE: &str = r#"
const done = arguments[arguments.length - 1];
const call = (name, input) => document.modelContext.executeTool(name, input).then((text) => JSON.parse(text));
const attempt = async (left) => {
  try {
    const shown = await call('widget_display', { name: 'tags', params: { label: 'Topics', tags: ['energy', 'climate', 'housing', 'transport', 'agriculture', 'budget', 'health', 'defence'] } });
    const id = shown.structuredContent.id;
    await call('canvas', { action: 'resize', id, params: { height: 1 } });
    done(id);
  } catch (error) {
    if (left > 0) setTimeout(() => attempt(left - 1), 100);
    else done(String(error));
  }
};
attempt(100);"#;
    with_app(BrowserOptions::default(), |page| async move {
        page.open("/#/").await;
        let id = page.eval_async(ADD_THEN_SIZE, vec![]).await;
        assert!(id.as_str().is_some_and(|id| id.starts_with("w_")), "the widget was added and sized: {id}");
        page.find("[data-widget-type=tags] .au-tags").await;
        // Past the frames in which a fit would have come.
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
        assert_eq!(rows_of(&page, "tags").await, 1, "the size the agent gave stays");
    })
    .await;
}

/// Opens the canvas with three KPI cards and a table, the first card added then moved to the row's
/// end: reading order (Orders, Revenue, that card, the table) is not the order they were added in.
/// Gives their ids in the order added.
async fn cards_and_a_table_out_of_order(page: &autoui_e2e::page::Page) -> Vec<String> {
    page.open("/#/").await;
    let mut ids = Vec::new();
    for (name, params) in [
        ("stat-card", json!({ "label": "Added first, placed last", "value": "1", "delta": "+1" })),
        ("stat-card", json!({ "label": "Orders", "value": "1,204", "unit": "orders", "delta": "+4.2% on May" })),
        ("stat-card", json!({ "label": "Revenue", "value": "29.6M", "unit": "€", "delta": "+11.4% in 2024" })),
        ("data-table", json!({ "title": "Regions", "rows": [{ "region": "North", "revenue": 8800 }, { "region": "South", "revenue": 7200 }] })),
    ] {
        let shown = page.call_tool("widget_display", json!({ "name": name, "params": params })).await;
        ids.push(shown["structuredContent"]["id"].as_str().expect("the widget's id").to_owned());
    }
    page.call_tool("canvas", json!({ "action": "move", "id": ids[0], "x": 9, "y": 0 })).await;
    page.wait_for_count("[data-testid=widget]", 4).await;
    page.wait_until("the first card is at the row's end", &format!(
        "return /grid-column: 10 \\//.test(document.querySelector(`[data-widget-id='{}']`).getAttribute('style'));", ids[0])).await;
    ids
}

/// Each frame's box on screen, in the order `ids` gives: `[left, top, width]` in CSS pixels, with the
/// grid's width last (`[0, 0, width]`).
async fn boxes(page: &autoui_e2e::page::Page, ids: &[String]) -> Vec<[f64; 3]> {
    let found = page
        .eval(
            "const box = (e) => { const r = e.getBoundingClientRect(); return [Math.round(r.left), Math.round(r.top), Math.round(r.width)]; };
             const frames = arguments[0].map((id) => box(document.querySelector(`[data-widget-id='${id}']`)));
             return [...frames, [0, 0, box(document.querySelector('.au-canvas__grid'))[2]]];",
            vec![json!(ids)],
        )
        .await;
    serde_json::from_value(found).expect("boxes")
}

/// Drags `css` by (dx, dy) pixels with the mouse, as a person moving a widget by its header.
async fn drag(page: &autoui_e2e::page::Page, css: &str, dx: f64, dy: f64) {
    use fantoccini::actions::{InputSource, MOUSE_BUTTON_LEFT, MouseActions, PointerAction};
    let element = page.find(css).await;
    let mouse = MouseActions::new("mouse".to_owned())
        .then(PointerAction::MoveToElement { element, duration: None, x: 0.0, y: 0.0 })
        .then(PointerAction::Down { button: MOUSE_BUTTON_LEFT })
        .then(PointerAction::MoveBy { duration: Some(std::time::Duration::from_millis(200)), x: dx, y: dy })
        .then(PointerAction::Up { button: MOUSE_BUTTON_LEFT });
    page.client().perform_actions(mouse).await.expect("drag");
}

/// A window beside the chat, a tablet or a phone leaves the canvas too narrow for its 12 columns:
/// its widgets then follow one another in reading order, the narrow ones two abreast, then one per
/// row, instead of squeezing a KPI card to a hundred pixels. The dashboard as placed comes back with
/// the room, and a drag in the narrow canvas moves nothing it cannot show.
#[tokio::test]
async fn a_canvas_too_narrow_for_its_columns_shows_its_widgets_in_reading_order() {
    with_app(BrowserOptions::default(), |page| async move {
        let ids = cards_and_a_table_out_of_order(&page).await;
        let (first, orders, revenue, table) = (0, 1, 2, 3);

        // The window of the other tests: the cards side by side as placed, a quarter of the grid each.
        let placed = boxes(&page, &ids).await;
        let grid = placed[4][2];
        assert!(grid >= 800.0, "a wide window keeps the 12 columns: {placed:?}");
        assert!(placed[first][0] > placed[revenue][0] && placed[first][1] == placed[orders][1], "as placed: {placed:?}");

        // Beside the chat in a 1,200 px window the canvas is about 770 px: two abreast.
        page.client().set_window_size(1200, 900).await.expect("resize the window");
        page.wait_until("the canvas reflows", "return document.querySelector('.au-canvas__grid').getBoundingClientRect().width < 800;").await;
        let two = boxes(&page, &ids).await;
        let grid = two[4][2];
        assert!(grid >= 540.0, "the canvas is between the two widths: {two:?}");
        assert_eq!(two[orders][1], two[revenue][1], "Orders and Revenue share the first row: {two:?}");
        assert!(two[orders][0] < two[revenue][0], "Orders first: {two:?}");
        assert!(two[first][1] > two[orders][1] && two[first][0] == two[orders][0], "the moved card starts the next row: {two:?}");
        assert!(two[table][1] > two[first][1], "the table comes last: {two:?}");
        for card in [first, orders, revenue] {
            assert!(two[card][2] > grid / 2.0 - 20.0, "each card takes half the row: {two:?}");
        }
        assert!(two[table][2] >= grid - 1.0, "the table takes the whole row: {two:?}");
        let whole = "return [...document.querySelectorAll('[data-widget-type=stat-card] .au-frame__body')].every((b) => b.scrollHeight <= b.clientHeight + 1);";
        assert_eq!(page.eval(whole, vec![]).await, true, "each card, wider than it was placed, shows whole in its height");
        assert!(!page.is_displayed(&format!("[data-widget-id='{}'] .au-frame__resize", ids[orders])).await, "no resize corner where sizes are not shown");

        // A drag here would edit a layout the canvas does not show: nothing moves.
        let style = |id: &str| format!("return document.querySelector(`[data-widget-id='{id}']`).getAttribute('style');");
        let before = page.eval(&style(&ids[orders]), vec![]).await;
        drag(&page, &format!("[data-widget-id='{}'] .au-frame__title", ids[orders]), 200.0, 120.0).await;
        assert_eq!(page.eval(&style(&ids[orders]), vec![]).await, before, "the drag left the card's place alone");

        // In a 900 px window the canvas is under 540 px: one widget per row, in reading order.
        page.client().set_window_size(900, 900).await.expect("resize the window");
        page.wait_until("the canvas goes to one column", "return document.querySelector('.au-canvas__grid').getBoundingClientRect().width < 540;").await;
        let one = boxes(&page, &ids).await;
        let grid = one[4][2];
        for frame in [first, orders, revenue, table] {
            assert!(one[frame][2] >= grid - 1.0, "every widget takes the whole width: {one:?}");
        }
        assert!(one[orders][1] < one[revenue][1] && one[revenue][1] < one[first][1] && one[first][1] < one[table][1], "in reading order: {one:?}");

        // With the room back, the dashboard is as it was placed.
        page.client().set_window_size(1400, 900).await.expect("resize the window");
        page.wait_until("the canvas has its columns again", "return document.querySelector('.au-canvas__grid').getBoundingClientRect().width >= 800;").await;
        assert_eq!(boxes(&page, &ids).await, placed, "every widget back in its place");
    })
    .await;
}

/// Presses Tab from the canvas toolbar's Share button until the focus has been through the grid and
/// left it; gives the widgets the focus went through, each once, in the order it reached them.
async fn tab_through_the_canvas(page: &autoui_e2e::page::Page) -> Vec<String> {
    page.eval("document.querySelector('[data-testid=share]').focus();", vec![]).await;
    let mut visited: Vec<String> = Vec::new();
    for _ in 0..120 {
        press(page, fantoccini::key::Key::Tab).await;
        let focused = focused_widget(page).await;
        match focused.as_str() {
            Some(id) if visited.last().map(String::as_str) != Some(id) => visited.push(id.to_owned()),
            Some(_) => {}
            None if !visited.is_empty() => return visited,
            None => {}
        }
    }
    panic!("Tab never left the canvas; it went through {visited:?}");
}

/// Tab goes through the widgets as they are laid out, row by row, not in the order the agent added
/// them (screen readers follow the same order), on the 12 columns and on a reflowed canvas alike.
#[tokio::test]
async fn tab_goes_through_the_widgets_in_the_order_they_are_laid_out() {
    with_app(BrowserOptions::default(), |page| async move {
        let ids = cards_and_a_table_out_of_order(&page).await;
        let laid_out = [&ids[1], &ids[2], &ids[0], &ids[3]].map(String::to_owned).to_vec();
        assert_eq!(tab_through_the_canvas(&page).await, laid_out, "Tab on the 12 columns (ids in the order added: {ids:?})");

        page.client().set_window_size(1200, 900).await.expect("resize the window");
        page.wait_until("the canvas reflows", "return document.querySelector('.au-canvas__grid').getBoundingClientRect().width < 800;").await;
        assert_eq!(tab_through_the_canvas(&page).await, laid_out, "Tab on the reflowed canvas (ids in the order added: {ids:?})");
    })
    .await;
}

/// Presses `key` on whatever has the focus, as a keyboard user would.
async fn press(page: &autoui_e2e::page::Page, key: fantoccini::key::Key) {
    use fantoccini::actions::{InputSource, KeyAction, KeyActions};
    let keys = KeyActions::new("keyboard".to_owned())
        .then(KeyAction::Down { value: key.into() })
        .then(KeyAction::Up { value: key.into() });
    page.client().perform_actions(keys).await.expect("press a key");
}

/// The widget holding the keyboard focus (`null` when it is elsewhere).
async fn focused_widget(page: &autoui_e2e::page::Page) -> serde_json::Value {
    page.eval("return document.activeElement.closest('[data-widget-id]')?.dataset.widgetId ?? null;", vec![]).await
}

/// A widget removed from the keyboard (Delete on its frame, or its Remove button) hands the focus
/// to the widget now in its place in reading order, not to the page's start, and a notice says how
/// to bring it back; the last one hands it to Undo. Each widget's content is numbered in reading
/// order too.
#[tokio::test]
async fn removing_a_widget_from_the_keyboard_keeps_the_focus_on_the_canvas_and_says_how_to_undo() {
    use fantoccini::key::Key;
    with_app(BrowserOptions::default(), |page| async move {
        let ids = cards_and_a_table_out_of_order(&page).await;
        let (first, orders, revenue, table) = (0, 1, 2, 3);
        let frame = |index: usize| format!("[data-widget-id='{}']", ids[index]);
        let number = |index: usize| format!("return document.querySelector(`[data-widget-id='{}'] .au-frame__body`).getAttribute('aria-label');", ids[index]);

        // Delete on Revenue's frame: the card after it in reading order (the first one added) takes the focus.
        page.eval(&format!("document.querySelector(`{}`).focus();", frame(revenue)), vec![]).await;
        press(&page, Key::Delete).await;
        page.wait_for_count("[data-testid=widget]", 3).await;
        page.wait_for_text("[data-testid=notices]", "Removed \u{201c}Revenue\u{201d}. Undo (Ctrl+Z) brings it back.").await;
        assert_eq!(focused_widget(&page).await, json!(ids[first]), "the focus goes on to the next widget");

        // The table's Remove button, pressed with Enter: the last in reading order hands the focus back.
        page.eval(&format!("document.querySelector(`{} [data-testid=widget-remove]`).focus();", frame(table)), vec![]).await;
        press(&page, Key::Enter).await;
        page.wait_for_count("[data-testid=widget]", 2).await;
        assert_eq!(focused_widget(&page).await, json!(ids[first]), "the focus goes back to the widget before");
        assert!(page.eval(&number(orders), vec![]).await.as_str().is_some_and(|label| label.ends_with("widget 1")), "Orders reads first");
        assert!(page.eval(&number(first), vec![]).await.as_str().is_some_and(|label| label.ends_with("widget 2")), "the card added first reads second");

        press(&page, Key::Delete).await;
        page.wait_for_count("[data-testid=widget]", 1).await;
        assert_eq!(focused_widget(&page).await, json!(ids[orders]));
        press(&page, Key::Delete).await;
        page.wait_for_count("[data-testid=widget]", 0).await;
        assert_eq!(
            page.eval("return document.activeElement.dataset.testid ?? null;", vec![]).await,
            json!("undo"),
            "on the emptied canvas the focus is on Undo"
        );
        press(&page, Key::Enter).await;
        page.wait_for_count("[data-testid=widget]", 1).await;
    })
    .await;
}

/// A widget removed while it holds the focus, by another agent or an agent's clear as much as by the
/// person, hands the focus to the widget taking its place in reading order (Undo on a canvas left
/// empty): a keyboard user is not sent back to the page's start by a change they did not make.
#[tokio::test]
async fn a_widget_an_agent_removes_under_the_focus_hands_it_on() {
    with_app(BrowserOptions::default(), |page| async move {
        let ids = cards_and_a_table_out_of_order(&page).await;
        let (first, orders, revenue, table) = (0, 1, 2, 3);
        let focus = |css: String| format!("document.querySelector(`{css}`).focus();");
        let frame = |index: usize| format!("[data-widget-id='{}']", ids[index]);

        // The person is typing in the table's filter (last in reading order) when another agent removes the table.
        page.eval(&focus(format!("{} .au-data-table__filter-input", frame(table))), vec![]).await;
        page.call_tool("canvas", json!({ "action": "remove", "id": ids[table] })).await;
        page.wait_for_count("[data-testid=widget]", 3).await;
        page.wait_until("the focus is back on the canvas", "return document.activeElement !== document.body;").await;
        assert_eq!(focused_widget(&page).await, json!(ids[first]), "the widget before the table takes the focus");

        // Revenue's frame holds the focus: the card after it in reading order takes it.
        page.eval(&focus(frame(revenue)), vec![]).await;
        page.call_tool("canvas", json!({ "action": "remove", "id": ids[revenue] })).await;
        page.wait_for_count("[data-testid=widget]", 2).await;
        page.wait_until("the focus is back on the canvas", "return document.activeElement !== document.body;").await;
        assert_eq!(focused_widget(&page).await, json!(ids[first]), "the widget after Revenue takes the focus");

        // Cleared under the focus: Undo takes it, and brings the widgets back.
        page.eval(&focus(frame(orders)), vec![]).await;
        page.call_tool("canvas", json!({ "action": "clear" })).await;
        page.wait_for_count("[data-testid=widget]", 0).await;
        page.wait_until("Undo has the focus", "return document.activeElement.dataset.testid === 'undo';").await;
    })
    .await;
}

/// Present shows the dashboard alone on the screen (a wall display, a meeting): no header, chat,
/// toolbar, frame tools or provenance badges, the canvas across the window, a layout no key changes
/// by accident, a screen kept on. Escape or the Exit button gives the app back as it was. A page
/// opened at `#/present` presents from the start.
#[tokio::test]
async fn presenting_shows_the_dashboard_alone_until_escape_or_exit() {
    use fantoccini::key::Key;
    with_app(BrowserOptions::default(), |page| async move {
        let ids = cards_and_a_table_out_of_order(&page).await;
        let seen = "const shown = (css) => [...document.querySelectorAll(css)].some((e) => e.checkVisibility());
                    const canvas = document.querySelector('[data-testid=canvas]').getBoundingClientRect();
                    return { app: ['[data-testid=header]', '[data-testid=chat]', '.au-canvas-toolbar', '.au-frame__tools', '.au-frame__resize', '[data-testid=provenance]'].filter(shown),
                             exit: shown('[data-testid=present-exit]'), top: canvas.top, wide: canvas.width >= window.innerWidth - 1,
                             frames: document.querySelectorAll('[data-testid=widget]').length };";

        // The screen's wake lock, noted instead of held.
        page.eval(
            "window.locks = []; window.released = 0;
             Object.defineProperty(navigator, 'wakeLock', { configurable: true, value: {
               request: async (type) => { window.locks.push(type); return { release: async () => { window.released += 1; } }; } } });",
            vec![],
        )
        .await;
        page.click("[data-testid=present]").await;
        page.wait_until("presenting", "return !!document.querySelector('.au-app--presenting');").await;
        page.wait_until("the screen is kept on", "return window.locks.length === 1 && window.locks[0] === 'screen';").await;
        let presented = page.eval(seen, vec![]).await;
        assert_eq!(presented["app"], json!([]), "nothing of the app around the dashboard: {presented}");
        assert_eq!(presented["frames"], json!(ids.len()), "{presented}");
        assert_eq!((presented["top"].as_f64(), presented["wide"].clone()), (Some(0.0), json!(true)), "the canvas fills the window: {presented}");
        assert_eq!(presented["exit"], true, "a way out shows: {presented}");
        // The layout stays as placed: arrow keys on a frame move nothing while presenting.
        let place = format!("return document.querySelector(`[data-widget-id='{}']`).getAttribute('style');", ids[1]);
        let before = page.eval(&place, vec![]).await;
        page.eval(&format!("document.querySelector(`[data-widget-id='{}']`).focus();", ids[1]), vec![]).await;
        press(&page, Key::Right).await;
        assert_eq!(page.eval(&place, vec![]).await, before, "the widget did not move");
        // Nor does Ctrl+Z undo anything (the last change moved the first card to the row's end).
        let first = format!("return document.querySelector(`[data-widget-id='{}']`).getAttribute('style');", ids[0]);
        let placed = page.eval(&first, vec![]).await;
        page.press_ctrl('z').await;
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
        assert_eq!(page.eval(&first, vec![]).await, placed, "nothing was undone");

        press(&page, Key::Escape).await;
        page.wait_until("no longer presenting", "return !document.querySelector('.au-app--presenting');").await;
        page.wait_until("the screen may sleep again", "return window.released === 1;").await;
        let back = page.eval(seen, vec![]).await;
        assert!(back["app"].as_array().is_some_and(|shown| shown.len() >= 3), "the app is back: {back}");
        assert_eq!(back["exit"], false, "{back}");

        page.click("[data-testid=present]").await;
        page.wait_until("presenting", "return !!document.querySelector('.au-app--presenting');").await;
        // The focus follows what is shown: to Exit, then back to Present (not lost on the page).
        page.wait_until("Exit has the focus", "return document.activeElement?.dataset.testid === 'present-exit';").await;
        page.click("[data-testid=present-exit]").await;
        page.wait_until("Exit ends it", "return !document.querySelector('.au-app--presenting');").await;
        page.wait_until("Present has the focus again", "return document.activeElement?.dataset.testid === 'present';").await;

        // A page opened at #/present (a wall display's browser) presents from the start; ending it
        // gives the canvas its address back, so a reload does not present again.
        page.eval("location.hash = '#/present';", vec![]).await;
        page.reload().await;
        page.wait_until("presenting from the start", "return !!document.querySelector('.au-app--presenting');").await;
        page.wait_for_count("[data-testid=widget]", ids.len()).await;
        press(&page, Key::Escape).await;
        page.wait_until("no longer presenting", "return !document.querySelector('.au-app--presenting');").await;
        assert_eq!(page.eval("return location.hash;", vec![]).await, json!("#/"));
        let errors = page.console_errors().await;
        assert!(errors.is_empty(), "console errors: {errors:#?}");
    })
    .await;
}

/// How many times the browser's print dialog opens (counted instead of shown) when `css` is clicked.
async fn print_dialogs_after_clicking(page: &autoui_e2e::page::Page, css: &str) -> u64 {
    page.eval("window.printed = 0; window.print = () => { window.printed += 1; };", vec![]).await;
    page.click(css).await;
    // The dialog opens on the next task, once the charts are drawn for paper.
    page.wait_until("the print dialog opened", "return window.printed > 0;").await;
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    page.eval("return window.printed;", vec![]).await.as_u64().expect("a count")
}

/// Printing (the toolbar's Print, or the browser's own) gives the dashboard alone, light even when the
/// app is dark, on as many pages as it takes: not the app's header, chat and toolbar around one
/// window's worth of canvas. On paper a table keeps its filter only while the filter narrows it.
#[tokio::test]
async fn printing_gives_the_whole_dashboard_alone_on_as_many_pages_as_it_takes() {
    with_app(BrowserOptions::default(), |page| async move {
        let mut ids = cards_and_a_table_out_of_order(&page).await;
        for region in ["North", "South", "East", "West"] {
            let rows: Vec<_> = (1..=6).map(|month| json!({ "month": format!("2024-0{month}"), "revenue": 1000 * month })).collect();
            let shown = page.call_tool("widget_display", json!({ "name": "data-table", "params": { "title": format!("{region} by month"), "rows": rows } })).await;
            ids.push(shown["structuredContent"]["id"].as_str().expect("the widget's id").to_owned());
        }
        page.wait_for_count("[data-testid=widget]", ids.len()).await;
        page.click("[data-testid=theme-toggle]").await;
        page.wait_until("the app is dark", "return getComputedStyle(document.querySelector('.au-frame')).backgroundColor !== 'rgb(255, 255, 255)';").await;

        assert_eq!(print_dialogs_after_clicking(&page, "[data-testid=print]").await, 1, "Print opens the print dialog");

        // A table narrowed by its filter says so on paper too.
        let regions = format!("[data-widget-id='{}']", ids[3]);
        page.type_into(&format!("{regions} .au-data-table__filter-input"), "North").await;
        page.wait_for_text(&format!("{regions} .au-data-table__count"), "1 of 2 rows").await;

        // What the page looks like to the printer.
        autoui_e2e::cdp::cdp(page.client(), "Emulation.setEmulatedMedia", json!({ "media": "print" })).await.expect("print media");
        let printed = page.eval(
            "const shown = (css) => [...document.querySelectorAll(css)].some((e) => e.checkVisibility());
             const frames = [...document.querySelectorAll('[data-testid=widget]')];
             const canvas = document.querySelector('.au-canvas');
             return {
               app: ['.au-header', '[data-testid=chat]', '.au-canvas-toolbar', '.au-frame__tools', '.au-frame__resize', '.au-data-table__export'].filter(shown),
               filters: [...document.querySelectorAll('.au-data-table__filter')].filter((e) => e.checkVisibility()).map((e) => e.closest('[data-widget-id]').dataset.widgetId),
               frames: frames.filter((f) => f.checkVisibility()).length,
               cut: canvas.scrollHeight > canvas.clientHeight + 1,
               bottom: Math.max(...frames.map((f) => f.getBoundingClientRect().bottom)) <= document.documentElement.scrollHeight,
               white: frames.every((f) => getComputedStyle(f).backgroundColor === 'rgb(255, 255, 255)'),
             };",
            vec![],
        ).await;
        autoui_e2e::cdp::cdp(page.client(), "Emulation.setEmulatedMedia", json!({ "media": "" })).await.expect("screen media");
        assert_eq!(printed["app"], json!([]), "none of the app around the dashboard prints: {printed}");
        assert_eq!(printed["frames"], json!(ids.len()), "every widget prints: {printed}");
        assert_eq!(printed["filters"], json!([ids[3]]), "only the filter that narrows its table prints: {printed}");
        assert_eq!(printed["cut"], false, "the canvas is not cut at the window's height: {printed}");
        assert_eq!(printed["bottom"], true, "the page holds the last widget: {printed}");
        assert_eq!(printed["white"], true, "the dark app prints light: {printed}");
    })
    .await;
}

/// Double-clicks the element `css` matches, as a mouse user would.
async fn double_click(page: &autoui_e2e::page::Page, css: &str) {
    use fantoccini::actions::{InputSource, MOUSE_BUTTON_LEFT, MouseActions, PointerAction};
    let element = page.find(css).await;
    let mouse = MouseActions::new("mouse".to_owned())
        .then(PointerAction::MoveToElement { element, duration: None, x: 0.0, y: 0.0 })
        .then(PointerAction::Down { button: MOUSE_BUTTON_LEFT })
        .then(PointerAction::Up { button: MOUSE_BUTTON_LEFT })
        .then(PointerAction::Down { button: MOUSE_BUTTON_LEFT })
        .then(PointerAction::Up { button: MOUSE_BUTTON_LEFT });
    page.client().perform_actions(mouse).await.expect("double-click");
}

/// A widget's name is changed by hand: a double-click on its title, or F2 on its frame, gives a box
/// in the title's place; Enter renames it under the parameter its kind is named by (a KPI's label),
/// Escape keeps the name, and Undo brings the old one back. The frame keeps the focus, and the arrow
/// keys typed in the box move the caret, not the widget.
#[tokio::test]
async fn a_widget_is_renamed_by_hand_from_its_title_or_f2_and_undo_brings_the_name_back() {
    use fantoccini::key::Key;
    with_app(BrowserOptions::default(), |page| async move {
        page.open("/").await;
        let table = page.call_tool("widget_display", json!({ "name": "data-table", "params": { "title": "Table 1", "rows": [{ "city": "Lyon" }] } })).await;
        let card = page.call_tool("widget_display", json!({ "name": "stat-card", "params": { "label": "Revenue", "value": "1.2M" } })).await;
        let (table, card) = (table["structuredContent"]["id"].as_str().unwrap().to_owned(), card["structuredContent"]["id"].as_str().unwrap().to_owned());
        page.wait_for_count("[data-testid=widget]", 2).await;
        let title = |id: &str| format!("[data-widget-id='{id}'] .au-frame__title");
        let layout = format!("return document.querySelector(`[data-widget-id='{table}']`).style.gridArea;");
        let placed = page.eval(&layout, vec![]).await;

        double_click(&page, &title(&table)).await;
        let rename = format!("[data-widget-id='{table}'] [data-testid=widget-rename]");
        page.wait_until("the box has the focus", &format!("return document.activeElement === document.querySelector(`{rename}`);")).await;
        assert_eq!(page.eval("return document.activeElement.value;", vec![]).await, json!("Table 1"), "it starts from the name");
        page.client().find(Locator::Css(&rename)).await.expect("the box")
            .send_keys("\u{e009}a\u{e000}Cities by size\u{e012}\u{e012}").await.expect("type a name");
        // Another agent changes the widget's rows meanwhile: the box and what was typed stay.
        page.call_tool(&format!("block_{table}_update"), json!({ "rows": [{ "city": "Lyon" }, { "city": "Nantes" }] })).await;
        page.wait_for_text(&format!("[data-widget-id='{table}'] .au-frame__body"), "Nantes").await;
        assert_eq!(page.eval("return document.activeElement.value ?? null;", vec![]).await, json!("Cities by size"), "still typing");
        press(&page, Key::Enter).await;
        page.wait_for_text(&title(&table), "Cities by size").await;
        assert!(page.text_content(&format!("[data-widget-id='{table}'] .au-frame__body")).await.contains("Nantes"), "the rename keeps the new rows");
        assert_eq!(page.eval(&layout, vec![]).await, placed, "the arrow keys in the box did not move the widget");
        assert_eq!(focused_widget(&page).await, json!(table), "the frame has the focus back");
        let get = page.call_tool(&format!("block_{table}_get"), json!({})).await;
        let data: serde_json::Value = serde_json::from_str(get["content"][0]["text"].as_str().unwrap_or_default()).unwrap_or_default();
        assert_eq!(data["data"]["title"], json!("Cities by size"), "other agents read the new name: {get}");

        // F2 on a KPI's frame renames its label; Escape keeps it.
        page.eval(&format!("document.querySelector(`[data-widget-id='{card}']`).focus();"), vec![]).await;
        press(&page, Key::F2).await;
        let rename = format!("[data-widget-id='{card}'] [data-testid=widget-rename]");
        page.wait_until("the box has the focus", &format!("return document.activeElement === document.querySelector(`{rename}`);")).await;
        page.client().find(Locator::Css(&rename)).await.expect("the box").send_keys("\u{e009}a\u{e000}Turnover").await.expect("type");
        press(&page, Key::Escape).await;
        page.wait_for_count(&rename, 0).await;
        assert_eq!(page.text(&title(&card)).await, "Revenue", "Escape keeps the name");
        press(&page, Key::F2).await;
        page.wait_for_count(&rename, 1).await;
        page.client().find(Locator::Css(&rename)).await.expect("the box").send_keys("\u{e009}a\u{e000}Turnover\u{e007}").await.expect("type");
        page.wait_for_text(&title(&card), "Turnover").await;
        assert!(page.text_content(&format!("[data-widget-id='{card}'] .au-frame__body")).await.contains("Turnover"), "the card says it too");

        // Leaving the box (a click elsewhere) renames too.
        double_click(&page, &title(&card)).await;
        page.wait_for_count(&rename, 1).await;
        page.client().find(Locator::Css(&rename)).await.expect("the box").send_keys("\u{e009}a\u{e000}Sales").await.expect("type");
        page.click(&title(&table)).await;
        page.wait_for_text(&title(&card), "Sales").await;

        // Undo brings the names back, one by one.
        page.click("[data-testid=undo]").await;
        page.wait_for_text(&title(&card), "Turnover").await;
        page.click("[data-testid=undo]").await;
        page.wait_for_text(&title(&card), "Revenue").await;
        page.click("[data-testid=undo]").await;
        page.wait_for_text(&title(&table), "Table 1").await;
        let errors = page.console_errors().await;
        assert!(errors.is_empty(), "console errors: {errors:#?}");
    })
    .await;
}

/// Expand shows a widget large over the page, its own copy sorted apart from the frame's, and the
/// layout untouched; Escape or Close gives the focus back to the Expand button. A shared dashboard,
/// read-only, expands too.
#[tokio::test]
async fn a_widget_expands_over_the_page_until_escape_or_close_and_its_layout_stays() {
    use fantoccini::key::Key;
    with_app(BrowserOptions::default(), |page| async move {
        page.open("/").await;
        let rows: Vec<_> = (0..40).map(|n| json!({ "city": format!("City {n:02}"), "people": 1000 + n })).collect();
        let shown = page.call_tool("widget_display", json!({ "name": "data-table", "params": { "title": "Cities", "rows": rows } })).await;
        let id = shown["structuredContent"]["id"].as_str().expect("an id").to_owned();
        page.call_tool("canvas", json!({ "action": "resize", "id": id, "params": { "width": 4, "height": 4 } })).await;
        let frame = format!("[data-widget-id='{id}']");
        page.wait_until("a small frame", &format!("return document.querySelector(`{frame}`)?.getBoundingClientRect().width < 400;")).await;
        let placed = page.eval(&format!("return document.querySelector(`{frame}`).getAttribute('style');"), vec![]).await;

        page.click(&format!("{frame} [data-testid=widget-expand]")).await;
        page.wait_until("a modal dialog shows the widget", "return document.querySelector(':modal')?.dataset.testid === 'widget-expanded';").await;
        let sizes = page.eval(
            &format!("const big = document.querySelector('[data-testid=widget-expanded]').getBoundingClientRect();
                      const small = document.querySelector(`{frame}`).getBoundingClientRect();
                      return {{ wider: big.width > 2 * small.width, taller: big.height > 1.5 * small.height,
                               title: document.querySelector('[data-testid=widget-expanded] h2').textContent,
                               rows: document.querySelectorAll('[data-testid=widget-expanded] tbody tr').length }};"),
            vec![],
        ).await;
        assert_eq!((sizes["wider"].clone(), sizes["taller"].clone(), sizes["title"].clone()), (json!(true), json!(true), json!("Cities")), "{sizes}");
        assert!(sizes["rows"].as_u64().is_some_and(|rows| rows > 0), "the table is there: {sizes}");
        // Its copy sorts on its own: the frame's table keeps its order.
        // The first row drawn (a long table draws only the rows in view, after a spacer).
        let first_city = |scope: &str| format!("return [...document.querySelectorAll(`{scope} tbody td`)].find((cell) => cell.textContent)?.textContent;");
        let sort = "[data-testid=widget-expanded] th:first-child .au-data-table__sort";
        page.click(sort).await;
        page.click(sort).await;
        let expanded_first = first_city("[data-testid=widget-expanded]");
        page.wait_until("sorted descending", &expanded_first.replace("?.textContent;", "?.textContent === 'City 39';")).await;
        assert_eq!(page.eval(&first_city(&frame), vec![]).await, json!("City 00"), "the frame's table is as it was");

        press(&page, Key::Escape).await;
        page.wait_for_count("[data-testid=widget-expanded]", 0).await;
        assert_eq!(
            page.eval("return document.activeElement.dataset.testid ?? null;", vec![]).await,
            json!("widget-expand"),
            "the focus is back on Expand"
        );
        assert_eq!(page.eval(&format!("return document.querySelector(`{frame}`).getAttribute('style');"), vec![]).await, placed, "the layout did not change");

        // A shared dashboard, read-only, expands too; Close ends it.
        let link = page.share_link().await;
        let fragment = link.split_once('#').map(|(_, fragment)| fragment.to_owned()).expect("a fragment");
        page.open(&format!("/#{fragment}")).await;
        page.find("[data-testid=read-only-banner]").await;
        page.click("[data-testid=widget-expand]").await;
        page.wait_until("expanded", "return document.querySelector(':modal')?.dataset.testid === 'widget-expanded';").await;
        page.click("[data-testid=widget-expanded-close]").await;
        page.wait_for_count("[data-testid=widget-expanded]", 0).await;
        let errors = page.console_errors().await;
        assert!(errors.is_empty(), "console errors: {errors:#?}");
    })
    .await;
}

/// "?" lists the keyboard shortcuts in a dialog, anywhere but in a field; Escape or Close closes it and
/// gives the focus back; the Settings drawer opens it too.
#[tokio::test]
async fn question_mark_lists_the_keyboard_shortcuts_except_while_typing() {
    use fantoccini::key::Key;
    with_app(BrowserOptions::default(), |page| async move {
        page.open("/").await;
        let card = page.call_tool("widget_display", json!({ "name": "stat-card", "params": { "label": "Revenue", "value": "1.2M" } })).await;
        let card = card["structuredContent"]["id"].as_str().unwrap().to_owned();
        page.wait_for_count("[data-testid=widget]", 1).await;
        let shown = "return document.querySelector('[data-testid=shortcuts]').open;";
        let closed = "return !document.querySelector('[data-testid=shortcuts]').open;";

        page.eval(&format!("document.querySelector(`[data-widget-id='{card}']`).focus();"), vec![]).await;
        page.client().active_element().await.expect("the frame").send_keys("?").await.expect("type ?");
        page.wait_until("the list is open", shown).await;
        let list = page.text("[data-testid=shortcuts]").await;
        for said in ["Keyboard shortcuts", "Undo a change to the canvas", "F2", "Rename it", "Shift and arrow keys", "Send the message"] {
            assert!(list.contains(said), "the list says {said:?}: {list}");
        }
        assert_eq!(page.eval("return !!document.activeElement.closest('[data-testid=shortcuts]');", vec![]).await, json!(true), "the focus is in the dialog");
        // Ctrl+Z under the dialog would change what it hides: it does nothing.
        page.press_ctrl('z').await;
        press(&page, Key::Escape).await;
        page.wait_until("Escape closes it", closed).await;
        assert_eq!(focused_widget(&page).await, json!(card), "the focus is back on the widget");
        assert_eq!(page.count("[data-testid=widget]").await, 1, "the widget is still there, not undone");

        // In the chat's box, "?" is a question mark.
        page.type_into("[data-testid=chat] textarea", "Why?").await;
        assert_eq!(page.eval(shown, vec![]).await, json!(false));
        assert_eq!(page.eval("return document.querySelector('[data-testid=chat] textarea').value;", vec![]).await, json!("Why?"));

        // From Settings, closed with its button or Escape, which leaves the drawer below it open.
        page.click("[data-testid=open-settings]").await;
        page.click("[data-testid=open-shortcuts]").await;
        page.wait_until("Settings opens it", shown).await;
        page.click("[data-testid=shortcuts-close]").await;
        page.wait_until("Close closes it", closed).await;
        page.click("[data-testid=open-shortcuts]").await;
        page.wait_until("opened again", shown).await;
        press(&page, Key::Escape).await;
        page.wait_until("Escape closes it", closed).await;
        assert!(page.is_displayed("[data-testid=settings]").await, "Settings stays open");
        assert_eq!(page.eval("return document.activeElement.dataset.testid ?? null;", vec![]).await, json!("open-shortcuts"), "the focus is back on its button");
    })
    .await;
}
