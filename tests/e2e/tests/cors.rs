//! Why a server cannot be reached, told apart in the real app (a page that is not cross-origin
//! isolated, unlike the browser tests' runner): nothing listening, a server that sends no CORS header
//! for this page, and one that refuses the preflight. Each status in the servers panel names the cause
//! and only what to change for it.

use autoui_e2e::browser::BrowserOptions;
use autoui_e2e::mcp_server::{McpServer, Transport, free_port};
use autoui_e2e::page::Page;
use autoui_e2e::with_app;

async fn failure(page: &Page, url: &str, name: &str) -> String {
    page.type_into("[data-testid=server-url]", url).await;
    page.type_into("[data-testid=server-name]", name).await;
    page.click("[data-testid=server-add]").await;
    page.wait_for_server(name, "failed: ").await
}


#[tokio::test]
async fn the_panel_tells_a_closed_port_from_missing_cors_headers_and_from_a_refused_preflight() {
    let cors_mode = |mode: &str| vec![("CORS_MODE".to_owned(), mode.to_owned())];
    let no_cors = McpServer::python_with_env("cors_server.py", Transport::Streamable, cors_mode("none")).await;
    let no_preflight = McpServer::python_with_env("cors_server.py", Transport::Streamable, cors_mode("no-preflight")).await;
    let (no_cors_url, no_preflight_url) = (no_cors.url(), no_preflight.url());
    let closed_url = format!("http://127.0.0.1:{}/mcp", free_port());
    with_app(BrowserOptions::default(), |page| async move {
        page.open("/").await;
        let origin = page.eval("return location.origin;", vec![]).await.as_str().unwrap_or_default().to_owned();
        page.click("[data-testid=open-servers]").await;

        let closed = failure(&page, &closed_url, "closed").await;
        assert!(closed.contains("nothing answers there") && closed.contains("Start the server or correct the URL"), "{closed}");
        assert!(!closed.contains("Access-Control"), "CORS is not the problem there: {closed}");

        let missing = failure(&page, &no_cors_url, "nocors").await;
        assert!(missing.contains(&format!("no Access-Control-Allow-Origin for {origin}")), "{missing}");
        assert!(missing.contains(&format!("Access-Control-Allow-Origin: {origin} (or *)")), "{missing}");

        let preflight = failure(&page, &no_preflight_url, "nopreflight").await;
        assert!(preflight.contains("refuses the preflight (OPTIONS)"), "{preflight}");
        assert!(preflight.contains("Access-Control-Allow-Methods: GET, POST, DELETE, OPTIONS"), "{preflight}");
    })
    .await;
    drop((no_cors, no_preflight));
}
