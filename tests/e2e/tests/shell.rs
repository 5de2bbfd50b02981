//! The app shell loads from the release build and is usable before any configuration.

use autoui_e2e::browser::BrowserOptions;
use autoui_e2e::with_app;

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
        assert!(page.is_displayed("[data-testid=settings]").await, "settings open on click");
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
