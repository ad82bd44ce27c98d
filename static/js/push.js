// Push notifications on this device (scorekeeper/notices/push.py sends them, the service
// worker shows them: templates/pwa/sw.js).
// - The settings page's "Allow notifications on this device": the browser asks its user,
//   subscribes with the site's VAPID public key and the subscription goes to the server;
//   "Stop" undoes both. The words shown come from the block's data-said-* attributes.
// - Logging out, on any page, first forgets this device's subscription, on the server and
//   in the browser: a shared phone shows the next person nobody's notifications. (The
//   server also deletes the one this session made, should this script not run.)
(function () {
  "use strict";

  const supported =
    "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
  // A logout waits for the subscription to go at most this long, then goes anyway.
  const LOGOUT_PATIENCE_MS = 3000;

  function keyBytes(base64url) {
    const base64 = base64url.replace(/-/g, "+").replace(/_/g, "/");
    const raw = atob(base64 + "=".repeat((4 - (base64.length % 4)) % 4));
    return Uint8Array.from(raw, (c) => c.charCodeAt(0));
  }

  function csrfToken(root) {
    const field = (root || document).querySelector("input[name=csrfmiddlewaretoken]");
    return field ? field.value : "";
  }

  async function post(url, data, token) {
    const response = await fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": token },
      body: JSON.stringify(data),
    });
    if (!response.ok) throw new Error(`${url} answered ${response.status}`);
    return response.json();
  }

  async function currentSubscription() {
    const registration = await navigator.serviceWorker.getRegistration();
    return registration ? registration.pushManager.getSubscription() : null;
  }

  function setUpDevice(block) {
    const allow = block.querySelector("[data-push-allow]");
    const stop = block.querySelector("[data-push-stop]");
    const status = block.querySelector(".push-status");
    function show(state) {
      allow.hidden = state === "on" || state === "unsupported";
      stop.hidden = state !== "on";
      status.textContent = block.dataset[`said${state[0].toUpperCase()}${state.slice(1)}`];
    }
    if (!supported) {
      show("unsupported");
      return;
    }
    currentSubscription()
      .then((subscription) => {
        if (subscription) show("on");
        else show(Notification.permission === "denied" ? "denied" : "off");
      })
      .catch(() => show("off"));

    allow.addEventListener("click", async () => {
      allow.disabled = true;
      try {
        if ((await Notification.requestPermission()) !== "granted") {
          show("denied");
          return;
        }
        const registration = await navigator.serviceWorker.ready;
        const subscription = await registration.pushManager.subscribe({
          userVisibleOnly: true,
          applicationServerKey: keyBytes(block.dataset.pushKey),
        });
        await post(block.dataset.pushSubscribe, subscription.toJSON(), csrfToken());
        show("on");
      } catch (error) {
        show("failed");
      } finally {
        allow.disabled = false;
      }
    });

    stop.addEventListener("click", async () => {
      stop.disabled = true;
      try {
        const subscription = await currentSubscription();
        if (subscription) {
          await post(block.dataset.pushUnsubscribe, { endpoint: subscription.endpoint }, csrfToken());
          await subscription.unsubscribe();
        }
        show("off");
      } catch (error) {
        show("failed");
      } finally {
        stop.disabled = false;
      }
    });
  }

  // The device's subscription goes, on the server and in the browser, before the logout.
  async function forgetDevice(form) {
    const subscription = await currentSubscription();
    if (!subscription) return;
    const forget = { endpoint: subscription.endpoint };
    await post(form.dataset.pushUnsubscribe, forget, csrfToken(form)).catch(() => null);
    await subscription.unsubscribe();
  }

  document.addEventListener("submit", (event) => {
    const form = event.target.closest("form[data-push-unsubscribe][data-logout]");
    if (!form || !supported || form.dataset.forgotten) return;
    event.preventDefault();
    form.dataset.forgotten = "yes";
    const patience = new Promise((resolve) => setTimeout(resolve, LOGOUT_PATIENCE_MS));
    Promise.race([forgetDevice(form).catch(() => null), patience]).then(() => form.submit());
  });

  document.addEventListener("DOMContentLoaded", () => {
    document.querySelectorAll("[data-push-key]").forEach(setUpDevice);
  });
})();
