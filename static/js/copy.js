// Copy buttons: a link to the clipboard in one tap. Each button names the read-only field
// it copies (data-copy) and says how it went in the status beside it, in the words of its
// data-copied and data-copy-failed. Without JavaScript the buttons stay hidden and the
// field is there to be selected and copied by hand.
(function () {
  "use strict";

  function reveal(root) {
    root.querySelectorAll("button[data-copy][hidden]").forEach((button) => {
      button.hidden = false;
    });
  }

  function say(button, text) {
    const status = button.parentElement.querySelector(".copy-status");
    if (status) status.textContent = text;
  }

  async function copy(button) {
    const field = document.getElementById(button.dataset.copy);
    if (!field) return;
    let copied = false;
    if (navigator.clipboard && window.isSecureContext) {
      try {
        await navigator.clipboard.writeText(field.value);
        copied = true;
      } catch (error) {
        copied = false; // refused (no permission, the page not in focus): select it below
      }
    }
    if (!copied) {
      // Selected, the link is one "copy" away on any phone or keyboard.
      field.focus();
      field.select();
    }
    say(button, copied ? button.dataset.copied : button.dataset.copyFailed);
  }

  document.addEventListener("click", (event) => {
    const button = event.target.closest("button[data-copy]");
    if (button) copy(button);
  });
  // A read-only field is selected whole at the first tap: ready to copy by hand.
  document.addEventListener("focusin", (event) => {
    if (event.target.matches("input.copy-field")) event.target.select();
  });
  document.addEventListener("DOMContentLoaded", () => reveal(document));
  // The invitations come back by HTMX with their buttons hidden again.
  document.addEventListener("htmx:load", (event) => reveal(event.target));
})();
