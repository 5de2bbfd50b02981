// Posts this page's URL to the app window that opened it, to this origin only (a page of another
// origin that opened it gets nothing), then closes. Without an opener it says so and stays.
"use strict";
(function () {
  var opener = window.opener;
  var url = window.location.href;
  // Out of this window's history and address bar before anything else.
  history.replaceState(null, "", window.location.pathname);
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
