// A form marked data-reset-on="hand-recorded" empties itself when the server names that
// event in its HX-Trigger header. This does what hx-on:hand-recorded="this.reset()" did,
// without eval, which the content security policy forbids.
(function () {
  "use strict";
  function bind(form) {
    if (form.dataset.resetBound) return;
    form.dataset.resetBound = "1";
    form.addEventListener(form.dataset.resetOn, () => form.reset());
  }
  htmx.onLoad((root) => {
    if (root.matches && root.matches("form[data-reset-on]")) bind(root);
    if (root.querySelectorAll) root.querySelectorAll("form[data-reset-on]").forEach(bind);
  });
})();
