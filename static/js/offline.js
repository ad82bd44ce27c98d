// Entering hands without a network.
//
// The service worker (/sw.js, templates/pwa/sw.js) keeps the pages; this script keeps the
// hands. Every hand the form records goes into the phone's IndexedDB first, with its
// idempotency key and the partie it belongs to:
// - with a connection and nothing waiting, htmx sends it as before, and it leaves the
//   phone once the server has answered; a send that fails on the way keeps it;
// - without a connection, or behind hands that wait, it stays: the sheet shows it as
//   waiting to be sent, and the emptied form (with a fresh key) takes the next hand.
// The hands that wait are sent in order, one at a time, to the same address with the same
// key, when the connection returns (the `online` event), every 15 s, on every page load
// and on "Send now". The server scores and checks each as always; a refused one keeps
// its reason and waits for a correction (or to be discarded), and those after it wait.
// What is typed in the form is kept on the phone as it is typed (a locked phone, a closed
// tab, a reload lose nothing). Without this script (or IndexedDB) the form works as before.
// The words come translated from data-* attributes of #offline-queue.
(function () {
  "use strict";
  const script = document.currentScript;
  const RETRY_MS = 15000;
  // What the server sets anew, not what the player typed.
  const UNTYPED = new Set(["csrfmiddlewaretoken", "entry_key", "form_had_errors", "evaluate"]);

  // --- The phone's store: the hands that wait, and the form half typed, per partie. ---

  let opened = null;
  function database() {
    if (!opened) {
      opened = new Promise((resolve, reject) => {
        if (!window.indexedDB) throw new Error("no IndexedDB");
        const request = indexedDB.open("scorekeeper", 1);
        request.onupgradeneeded = () => {
          // Hands in the order entered (the key grows); drafts by the form's address.
          request.result.createObjectStore("hands", { keyPath: "id", autoIncrement: true });
          request.result.createObjectStore("drafts", { keyPath: "action" });
        };
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
    }
    return opened;
  }

  async function withStore(name, mode, work) {
    const db = await database();
    return new Promise((resolve, reject) => {
      const transaction = db.transaction(name, mode);
      const request = work(transaction.objectStore(name));
      transaction.oncomplete = () => resolve(request.result);
      transaction.onerror = () => reject(transaction.error);
      transaction.onabort = () => reject(transaction.error);
    });
  }

  const hands = {
    all: () => withStore("hands", "readonly", (store) => store.getAll()),
    add: (hand) => withStore("hands", "readwrite", (store) => store.add(hand)),
    put: (hand) => withStore("hands", "readwrite", (store) => store.put(hand)),
    remove: (id) => withStore("hands", "readwrite", (store) => store.delete(id)),
  };
  const drafts = {
    get: (action) => withStore("drafts", "readonly", (store) => store.get(action)),
    put: (draft) => withStore("drafts", "readwrite", (store) => store.put(draft)),
    remove: (action) => withStore("drafts", "readwrite", (store) => store.delete(action)),
  };

  // --- The page ---

  const panel = () => document.getElementById("offline-queue"); // a scorer's partie page
  const handForm = () => document.getElementById("hand-form");

  function words(name, values) {
    let text = (panel() && panel().dataset[name]) || "";
    for (const [key, value] of Object.entries(values || {})) {
      text = text.split(`{${key}}`).join(value);
    }
    return text;
  }

  let pending = null;
  function say(text, isError) {
    const status = document.getElementById("entry-status");
    if (!status) return;
    status.classList.toggle("error", !!isError);
    status.setAttribute("role", isError ? "alert" : "status");
    // Emptied first, so that a screen reader says the same words again.
    window.clearTimeout(pending);
    status.textContent = "";
    pending = window.setTimeout(() => { status.textContent = text; }, 50);
  }

  function uuid() {
    if (window.crypto.randomUUID) return window.crypto.randomUUID();
    const bytes = window.crypto.getRandomValues(new Uint8Array(16));
    bytes[6] = (bytes[6] & 0x0f) | 0x40; // version 4
    bytes[8] = (bytes[8] & 0x3f) | 0x80; // the RFC's variant
    const hex = [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
    const parts = [hex.slice(0, 8), hex.slice(8, 12), hex.slice(12, 16), hex.slice(16, 20)];
    return [...parts, hex.slice(20)].join("-");
  }

  function keyField(form) {
    return form.querySelector("[name=entry_key]");
  }

  function typedFields(form) {
    return [...form.querySelectorAll("input, select, textarea")].filter(
      (field) => field.name && field.type !== "hidden" && !UNTYPED.has(field.name)
    );
  }

  // What the form holds, as the pairs it would send.
  function fieldsOf(form) {
    return [...new FormData(form)].filter(
      ([name, value]) => !UNTYPED.has(name) && typeof value === "string"
    );
  }

  // What the form held as the server rendered it, in the order the form sends it.
  function defaultsOf(form) {
    const pairs = [];
    const sent = [...form.querySelectorAll("input, select, textarea")].filter(
      (field) => field.name && !field.disabled && !UNTYPED.has(field.name)
    );
    for (const field of sent) {
      if (field.type === "radio" || field.type === "checkbox") {
        if (field.defaultChecked) pairs.push([field.name, field.value]);
      } else if (field.tagName === "SELECT") {
        for (const option of field.options) {
          if (option.defaultSelected) pairs.push([field.name, option.value]);
        }
      } else {
        pairs.push([field.name, field.defaultValue]);
      }
    }
    return pairs;
  }

  // The form as a fresh one shows it; known from the last form that came without errors.
  let blank = null;
  function noteBlank(form) {
    if (form && !form.querySelector("[name=form_had_errors]")) blank = defaultsOf(form);
  }

  function same(a, b) {
    return JSON.stringify(a) === JSON.stringify(b);
  }

  function fill(form, pairs) {
    const values = new Map(pairs);
    for (const field of typedFields(form)) {
      if (field.type === "radio" || field.type === "checkbox") {
        field.checked = values.get(field.name) === field.value;
      } else if (values.has(field.name)) {
        field.value = values.get(field.name);
      } else {
        continue;
      }
      // The card picker and the fields shown follow what the form holds.
      const type = field.type === "radio" ? "change" : "input";
      field.dispatchEvent(new Event(type, { bubbles: true }));
    }
    for (const details of form.querySelectorAll("details")) {
      const inside = [...details.querySelectorAll("input:not([type=hidden])")];
      if (inside.some((f) => f.value)) details.open = true;
    }
  }

  function firstField(form) {
    for (const field of form.querySelectorAll("input:not([type=hidden]), select, textarea")) {
      if (!field.getClientRects().length) continue;
      if (field.type === "radio") {
        return form.querySelector(`input[type=radio][name="${field.name}"]:checked`) || field;
      }
      return field;
    }
    return null;
  }

  // Ready for the next hand: nothing typed, a key of its own.
  function empty(form) {
    fill(form, blank || defaultsOf(form));
    keyField(form).value = uuid();
    delete form.dataset.correcting;
    const first = firstField(form);
    if (first) first.focus();
  }

  function labelOf(field) {
    const label =
      field.type === "radio"
        ? field.closest("label")
        : field.form.querySelector(`label[for="${field.id}"]`);
    return label ? label.textContent.trim() : "";
  }

  // The hand in words for its row in the sheet: the result, then what else was chosen or typed.
  function summaryOf(form) {
    const outcome = [];
    const detail = [];
    for (const field of typedFields(form)) {
      if (field.type === "radio") {
        if (field.checked) (/kind$/.test(field.name) ? outcome : detail).push(labelOf(field));
      } else if (field.value.trim() && field.getClientRects().length) {
        detail.push(`${labelOf(field)} ${field.value.trim()}`);
      }
    }
    return { outcome: outcome.join(" | "), detail: detail.join(" · ") };
  }

  function saveDraft(form) {
    if (!form || form.dataset.correcting || !panel()) return Promise.resolve();
    const action = form.getAttribute("action");
    return drafts.put({ action, fields: fieldsOf(form), at: Date.now() }).catch(() => null);
  }

  async function restoreDraft(form) {
    const draft = await drafts.get(form.getAttribute("action")).catch(() => null);
    if (draft && handForm() === form) fill(form, draft.fields);
  }

  // --- The hands that wait, in the sheet ---

  let inFlight = null; // the id of the hand htmx is sending now: neither shown nor sent here
  const numbers = new Map(); // hand id -> its number in the sheet, as last shown

  function next() {
    const status = document.getElementById("status");
    return Number(status && status.dataset.next) || 1;
  }

  async function waitingHere() {
    const here = panel();
    if (!here) return [];
    const all = await hands.all();
    return all.filter((hand) => hand.action === here.dataset.action);
  }

  function element(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function button(className, text, data) {
    const node = element("button", className, text);
    node.type = "button";
    Object.assign(node.dataset, data);
    return node;
  }

  function rowOf(hand, number, width) {
    const refused = hand.state === "refused";
    const row = element("tr", `hand waiting${refused ? " refused" : ""}`);
    row.dataset.queued = hand.id;
    const play = element("td", "play");
    play.append(
      element("span", "outcome", hand.summary.outcome),
      element("small", "", hand.summary.detail)
    );
    const state = element("td", "queued");
    state.colSpan = Math.max(1, width - 2);
    if (refused) {
      state.append(element("span", "", words("refused", { reason: hand.reason })));
      const actions = element("div", "actions");
      actions.append(
        button("secondary", words("correct"), { correct: hand.id }),
        button("link", words("discard"), { discard: hand.id })
      );
      state.append(actions);
    } else {
      state.textContent = words("waiting");
    }
    row.append(element("td", "", String(number)), play, state);
    return row;
  }

  function widthOf(body) {
    const head = body.closest("table").querySelector("thead tr:last-child");
    return head ? [...head.cells].reduce((n, cell) => n + cell.colSpan, 0) : 3;
  }

  async function show() {
    const here = panel();
    if (!here) return;
    const waiting = (await waitingHere().catch(() => [])).filter((hand) => hand.id !== inFlight);
    const body = document.getElementById("sheet-body");
    waitingCount = waiting.length;
    numbers.clear();
    waiting.forEach((hand, n) => numbers.set(hand.id, next() + n));
    if (body) {
      body.querySelectorAll("tr.waiting").forEach((row) => row.remove());
      const width = widthOf(body);
      for (const hand of waiting) body.append(rowOf(hand, numbers.get(hand.id), width));
    }
    const stopped = waiting.find((hand) => hand.state === "refused");
    here.hidden = !waiting.length;
    here.classList.toggle("stopped", !!stopped);
    // Stopped, the way on is to correct or discard the refused hand, not to send again.
    here.querySelector("[data-send-now]").hidden = !!stopped;
    here.querySelector(".queue-count").textContent = stopped
      ? words("stopped", { number: numbers.get(stopped.id) })
      : words(waiting.length === 1 ? "countOne" : "countOther", { count: waiting.length });
  }

  // --- Recording a hand: through the phone's store ---

  let storable = false; // IndexedDB opened: without it the form works as it did before
  let waitingCount = 0; // the hands waiting here, as last shown
  let keeping = 0; // the hands kept since, on their way into the store
  let inFlightKey = null; // the key of the hand htmx is sending now
  let lastKept = 0;
  let storing = Promise.resolve(); // hands are stored one after the other, as entered

  function handOf(form) {
    return {
      action: form.getAttribute("action"),
      page: location.pathname,
      key: keyField(form).value,
      fields: fieldsOf(form),
      summary: summaryOf(form),
      state: "waiting",
      reason: "",
      at: Date.now(),
    };
  }

  document.addEventListener("htmx:confirm", (event) => {
    const form = event.detail.elt;
    const submit = event.detail.triggeringEvent;
    if (!storable || !panel() || !form || form.id !== "hand-form") return;
    if (!submit || submit.type !== "submit") return;
    if (submit.submitter && submit.submitter.name === "evaluate") {
      // The melds are the server's to find: offline there is nobody to ask.
      if (!navigator.onLine) {
        event.preventDefault();
        say(words("needsNetwork"), true);
      }
      return;
    }
    event.preventDefault();
    const hand = handOf(form);
    if (hand.key === inFlightKey) return; // a second tap on the hand already on its way
    const correcting = Number(form.dataset.correcting) || 0;
    if (correcting || !navigator.onLine || inFlightKey !== null || waitingCount + keeping > 0) {
      keepNow(form, hand, correcting);
      return;
    }
    // Kept while on its way: a page closed before the answer sends it again (same key).
    inFlightKey = hand.key;
    const send = () => event.detail.issueRequest(true);
    storing = storing.then(() => sendThroughStore(form, hand, send));
  });

  async function sendThroughStore(form, hand, send) {
    try {
      if ((await waitingHere()).length) {
        inFlightKey = null; // another tab left hands here: this one goes behind them
        keepNow(form, hand, 0);
        return;
      }
      inFlight = await hands.add(hand);
      await drafts.remove(hand.action);
    } catch (error) {
      // not kept: sent all the same
    }
    send();
  }

  // Kept on the phone, the form empty at once for the next hand (or for what was being
  // typed before a correction); stored behind any hand still being stored.
  function keepNow(form, hand, correcting) {
    if (!correcting && same(hand.fields, blank || defaultsOf(form))) {
      if (Date.now() - lastKept > 2000) say(words("nothing"), true); // else: a double tap
      return;
    }
    const number = correcting ? numbers.get(correcting) : next() + waitingCount + keeping;
    if (!correcting) keeping += 1;
    lastKept = Date.now();
    empty(form);
    if (correcting) {
      say("", false); // "correct hand 2 here" is done: what follows is said by the queue
    } else {
      saveDraft(form); // the draft is the empty form now, before anything typed next
      say(words(navigator.onLine ? "keptBehind" : "kept", { number }));
    }
    storing = storing.then(() => keep(form, hand, correcting));
  }

  async function keep(form, hand, correcting) {
    try {
      const earlier = correcting && (await hands.all()).find((h) => h.id === correcting);
      if (earlier) {
        const fresh = { fields: hand.fields, summary: hand.summary, state: "waiting", reason: "" };
        await hands.put(Object.assign(earlier, fresh));
      } else {
        await hands.add(hand);
      }
    } catch (error) {
      // Nowhere to keep it: back in the form, and the words of a failed send.
      if (!correcting) keeping -= 1;
      if (handForm() === form && same(fieldsOf(form), blank || defaultsOf(form))) {
        fill(form, hand.fields);
      }
      const status = document.getElementById("entry-status");
      say(status ? status.dataset.sendError : "", true);
      return;
    }
    if (!correcting) keeping -= 1;
    if (correcting && same(fieldsOf(form), blank || defaultsOf(form))) await restoreDraft(form);
    await show();
    flush();
  }

  // The request came from the hand form. When the answer replaced the form, htmx names
  // a parent as the event's element: the request's own element still says it.
  function fromHandForm(detail) {
    const elts = [detail && detail.requestConfig && detail.requestConfig.elt, detail && detail.elt];
    return elts.some(
      (elt) => !!elt && (elt.id === "hand-form" || !!(elt.closest && elt.closest("#hand-form")))
    );
  }

  document.addEventListener("htmx:afterRequest", (event) => {
    if (inFlightKey === null || !fromHandForm(event.detail)) return;
    const xhr = event.detail.xhr;
    if (xhr && xhr.status === 0) return; // never answered: htmx:sendError keeps it
    const id = inFlight;
    inFlight = inFlightKey = null;
    // Answered: recorded, or refused in the form (which shows why), or a server error
    // (the form still holds it, and entry.js says so): the store lets it go either way.
    (id === null ? Promise.resolve() : hands.remove(id)).catch(() => null).then(() => flush());
    if (event.detail.successful) keepPage();
    else saveDraft(handForm());
  });

  // In the capture phase, before entry.js: a hand that never reached the server is kept
  // here, and entry.js does not say "send it again".
  function unanswered(event) {
    if (inFlightKey === null || !fromHandForm(event.detail)) return;
    const id = inFlight;
    inFlight = inFlightKey = null;
    if (id === null) return; // not kept (no store): entry.js says "send it again"
    event.detail.kept = true;
    const form = handForm();
    if (form) {
      empty(form);
      saveDraft(form);
    }
    show().then(() => say(words("kept", { number: numbers.get(id) || next() })));
  }
  for (const type of ["htmx:sendError", "htmx:sendAbort", "htmx:timeout"]) {
    document.addEventListener(type, unanswered, true);
  }

  document.addEventListener("htmx:afterSettle", () => {
    const form = handForm();
    if (!panel() || !form) return;
    if (form.querySelector("[name=form_had_errors]")) saveDraft(form); // refused: keep it typed
    else noteBlank(form);
    show();
  });

  // --- Sending the hands that wait ---

  function csrfToken() {
    try {
      return JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"];
    } catch (error) {
      const field = document.querySelector("[name=csrfmiddlewaretoken]");
      return field ? field.value : "";
    }
  }

  // Why the server refused a hand: the errors of the form it sent back, each with its
  // field's name; none when the answer holds no form with errors (the hand was recorded).
  function reasonsIn(html) {
    const page = new DOMParser().parseFromString(html, "text/html");
    const form = page.getElementById("hand-form"); // the answer's own, not one in a <template>
    const reasons = [];
    for (const error of form ? form.querySelectorAll("p.error") : []) {
      const field = error.closest(".field");
      const label = field && field.querySelector("label, legend");
      const text = error.textContent.trim();
      reasons.push(label ? `${label.textContent.trim()}: ${text}` : text);
    }
    return reasons.join(" ");
  }

  // One hand, as htmx sends the form: recorded, the answer is the sheet's new parts;
  // refused, it is the form again with its errors (a 200 either way, as htmx wants it).
  async function send(hand) {
    const body = new URLSearchParams(hand.fields);
    body.set("entry_key", hand.key);
    let response;
    try {
      response = await fetch(hand.action, {
        method: "POST",
        body,
        headers: { "X-CSRFToken": csrfToken(), "HX-Request": "true" },
        credentials: "same-origin",
      });
    } catch (error) {
      return { offline: true };
    }
    if (response.redirected) return { logIn: true }; // to the login page: the session ended
    const text = await response.text().catch(() => "");
    if (response.status >= 400 && response.status < 500 && ![408, 429].includes(response.status)) {
      return { refused: reasonsIn(text) || words("refusedStatus", { status: response.status }) };
    }
    if (!response.ok) return { status: response.status };
    const refused = reasonsIn(text);
    return refused ? { refused } : { sent: true };
  }

  async function sendAll() {
    const here = panel() && panel().dataset.action;
    const stopped = new Set(); // the parties whose earlier hand waits: theirs wait too
    let sentHere = 0;
    let trouble = null;
    for (const hand of await hands.all()) {
      if (stopped.has(hand.action)) continue;
      if (hand.id === inFlight || hand.state === "refused") {
        stopped.add(hand.action);
        continue;
      }
      const answer = await send(hand);
      if (answer.sent) {
        await hands.remove(hand.id);
        if (hand.action === here) sentHere += 1;
      } else if (answer.refused) {
        Object.assign(hand, { state: "refused", reason: answer.refused });
        await hands.put(hand);
        stopped.add(hand.action);
      } else {
        trouble = answer; // no connection, a server error, logged out: everything waits
        break;
      }
    }
    if (!panel()) return;
    if (sentHere) await refresh();
    await show();
    if (trouble && trouble.status) say(words("serverError", { status: trouble.status }), true);
    else if (trouble && trouble.logIn) say(words("logIn"), true);
    else if (sentHere && !stopped.has(here)) say(words("sent"));
  }

  let flushing = null;
  let again = false;
  function flush(now) {
    if (!now && !navigator.onLine) return Promise.resolve();
    if (flushing) {
      again = true; // after the round under way, one more: it may have started too early
      return flushing;
    }
    // One tab at a time sends (where the browser can say so); the keys make it safe anyway.
    const run = () => sendAll();
    flushing = (navigator.locks ? navigator.locks.request("scorekeeper-hands", run) : run())
      .catch(() => null)
      .finally(() => {
        flushing = null;
        if (again) {
          again = false;
          flush(now);
        }
      });
    return flushing;
  }

  // The sheet as the server now scores it; what is being typed stays in the form.
  async function refresh() {
    const form = handForm();
    const typed = form && !same(fieldsOf(form), blank || defaultsOf(form)) ? fieldsOf(form) : null;
    const correcting = form && form.dataset.correcting;
    try {
      const here = location.pathname + location.search;
      await htmx.ajax("GET", here, { target: "#table", swap: "outerHTML" });
    } catch (error) {
      return;
    }
    const fresh = handForm();
    if (fresh && typed) fill(fresh, typed);
    if (fresh && correcting) fresh.dataset.correcting = correcting;
    keepPage();
  }

  // --- Correct or discard a refused hand ---

  async function correct(id) {
    const form = handForm();
    const hand = (await hands.all()).find((h) => h.id === id);
    if (!form || !hand) return;
    await saveDraft(form); // what was being typed comes back after the correction
    fill(form, hand.fields);
    form.dataset.correcting = String(id);
    say(words("correcting", { number: numbers.get(id) }));
    const first = firstField(form);
    if (first) first.focus();
  }

  async function discard(id) {
    await hands.remove(id);
    const form = handForm();
    if (form && Number(form.dataset.correcting) === id) {
      empty(form);
      await restoreDraft(form);
    }
    await show();
    flush();
  }

  document.addEventListener("click", (event) => {
    const target = event.target.closest && event.target.closest("button");
    if (!target) return;
    if (target.matches("#offline-queue [data-send-now]")) flush(true);
    else if (target.dataset.correct) correct(Number(target.dataset.correct));
    else if (target.dataset.discard) discard(Number(target.dataset.discard));
    // A card picked is typed too, without an input event.
    else if (target.closest("#hand-form [data-card-picker]")) saveDraft(handForm());
  });

  // --- What is typed, kept as it is typed ---

  for (const type of ["input", "change"]) {
    document.addEventListener(type, (event) => {
      const form = event.target.closest && event.target.closest("#hand-form");
      if (form && event.isTrusted) saveDraft(form);
    });
  }
  window.addEventListener("pagehide", () => saveDraft(handForm()));

  // --- The service worker ---

  // Whether the worker answered for this page as it loaded (and so kept it, where it keeps
  // pages), read as the script runs: a page that came before the worker is active is
  // taken over by it on its activation (clients.claim()), which may be before this page
  // hears that the worker is ready, so the controller then says nothing of how it came.
  const servedByWorker = (() => {
    if (!("serviceWorker" in navigator) || !navigator.serviceWorker.controller) return false;
    const [loading] = performance.getEntriesByType("navigation");
    return !loading || loading.workerStart > 0; // 0: the page came from the network alone
  })();

  function keepPage() {
    if (!("serviceWorker" in navigator)) return;
    navigator.serviceWorker.ready.then((registration) => {
      if (registration.active) registration.active.postMessage({ keep: location.href });
    });
  }

  function register() {
    const url = script && script.dataset.serviceWorker;
    if (!url || !("serviceWorker" in navigator)) return;
    navigator.serviceWorker
      .register(url, { scope: "/" })
      .then(() => navigator.serviceWorker.ready)
      .then(() => {
        // This page came before the worker did: the worker, active now, keeps it.
        if (!servedByWorker) keepPage();
      })
      .catch(() => null); // no worker (a private window, plain http): the site works without
  }

  // --- On every page ---

  document.addEventListener("DOMContentLoaded", () => {
    register();
    database().then(() => { storable = true; }, () => null);
    const form = handForm();
    if (panel() && form) {
      // The page may be a copy kept on the phone: its key may have served already.
      keyField(form).value = uuid();
      noteBlank(form);
      if (!form.querySelector("[name=form_had_errors]")) restoreDraft(form);
    }
    show().then(() => flush());
  });
  window.addEventListener("online", () => flush());
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") flush();
  });
  window.setInterval(() => flush(), RETRY_MS);
})();
