// Hands the authorization server's answer (this page's URL) back to the app, then gets out of the way:
// - after a full-page sign-in (the app's sign-in window was blocked), the app left its pending
//   sign-in in this tab's session storage: the URL goes beside it and this page is replaced by the
//   app page it came from, which finishes the sign-in;
// - in the sign-in window, it is posted to the app window that opened it, to this origin only (a
//   page of another origin that opened it gets nothing), and the window closes.
// Otherwise it says so and stays. The keys are the ones src/adapters/oauth_redirect.rs uses.
"use strict";
(function () {
  var opener = window.opener;
  var url = window.location.href;
  // Out of this window's history and address bar before anything else.
  history.replaceState(null, "", window.location.pathname);
  var back = null;
  try {
    if (sessionStorage.getItem("autoui-oauth-pending")) back = sessionStorage.getItem("autoui-oauth-return");
  } catch (error) {
    back = null;
  }
  if (back && new URL(back, window.location.href).origin === window.location.origin) {
    sessionStorage.setItem("autoui-oauth-callback", url);
    window.location.replace(back);
    return;
  }
  if (opener && !opener.closed) {
    opener.postMessage({ type: "autoui-oauth-callback", url: url }, window.location.origin);
    window.close();
    return;
  }
  document.addEventListener("DOMContentLoaded", function () {
    document.getElementById("message").textContent =
      "This sign-in window lost the app page that opened it. Close it and press Sign in again.";
  });
})();
