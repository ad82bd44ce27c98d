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
// The words come translated from data-* attributes of #offline-queue (on a partie's page)
// and #phone-hands (on every page).
//
// A phone is shared at a card table: what is kept here is one person's. Every page names
// the account it was made for (<body data-account>, scorekeeper/pwa/account.py: an opaque
// token, "nobody", or nothing on the offline page, which is everyone's). Each hand kept
// notes who entered it, and is sent only from a page of that account, naming it (the
// server refuses it with 409 in anyone else's session); another person logged in sees
// "1 hand from Ben waits ... when Ben logs in", not the hand. The half-typed form is kept
// per person, and a page of someone else (or of nobody) drops the others' drafts.
// A hand leaves the phone only when the server's answer says it is stored, by its key and
// number (the Scorekeeper-Hand-Stored and -Number headers of hand_create): a bare 200 (the
// login page after a redirect, the repair path's HX-Redirect, a portal's page) is not that
// word. A refusal for good (403, 404, 410: the partie gone or closed to the person) stops
// the sending and says why; the hand waits to be discarded.
(function () {
  "use strict";
  const script = document.currentScript;
  const RETRY_MS = 15000;
  // What the server sets anew, not what the player typed.
  const UNTYPED = new Set(["csrfmiddlewaretoken", "entry_key", "form_had_errors", "evaluate"]);
  // scorekeeper/pwa/account.py's HEADER and NOBODY; scorekeeper/table/views/parties.py's
  // headers of a hand stored.
  const ACCOUNT = "Scorekeeper-Account";
  const NOBODY = "nobody";
  const STORED = "Scorekeeper-Hand-Stored";
  const STORED_NUMBER = "Scorekeeper-Hand-Number";
  const FOR_GOOD = [403, 404, 410];

  // --- Who is logged in, as the page says ---

  // The account's token; "nobody"; "" where the page names none (the offline page).
  function me() {
    return (document.body && document.body.dataset.account) || "";
  }

  function myName() {
    return (document.body && document.body.dataset.accountName) || "";
  }

  function signedIn() {
    return me() !== "" && me() !== NOBODY;
  }

  // --- The phone's store: the hands that wait, and the form half typed, per person. ---

  let opened = null;
  function database() {
    if (!opened) {
      opened = new Promise((resolve, reject) => {
        if (!window.indexedDB) throw new Error("no IndexedDB");
        const request = indexedDB.open("scorekeeper", 2);
        request.onupgradeneeded = () => {
          const db = request.result;
          // Hands in the order entered (the key grows), each with who entered it.
          if (!db.objectStoreNames.contains("hands")) {
            db.createObjectStore("hands", { keyPath: "id", autoIncrement: true });
          }
          // Drafts by person and form (version 2); those kept before named nobody: gone.
          if (db.objectStoreNames.contains("drafts")) db.deleteObjectStore("drafts");
          db.createObjectStore("drafts", { keyPath: "id" });
        };
        request.onsuccess = () => {
          const db = request.result;
          db.onversionchange = () => db.close(); // a newer script's tab opens it anew
          resolve(db);
        };
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
  // A draft is a person's half-typed form: kept by account and the form's address.
  const draftId = (action) => `${me()} ${action}`;
  const drafts = {
    get: (action) => withStore("drafts", "readonly", (store) => store.get(draftId(action))),
    put: (action, fields) =>
      withStore("drafts", "readwrite", (store) =>
        store.put({ id: draftId(action), owner: me(), action, fields, at: Date.now() })
      ),
    remove: (action) => withStore("drafts", "readwrite", (store) => store.delete(draftId(action))),
    // Someone else (or nobody) is logged in now: the others' half-typed hands go.
    dropOthers: () =>
      withStore("drafts", "readwrite", (store) => {
        const request = store.openCursor();
        request.onsuccess = () => {
          const cursor = request.result;
          if (!cursor) return;
          if (cursor.value.owner !== me()) cursor.delete();
          cursor.continue();
        };
        return request;
      }),
  };

  // --- The page ---

  const panel = () => document.getElementById("offline-queue"); // a scorer's partie page
  const notice = () => document.getElementById("phone-hands"); // every page
  const handForm = () => document.getElementById("hand-form");

  function words(name, values) {
    let text =
      (panel() && panel().dataset[name]) || (notice() && notice().dataset[name]) || "";
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
    if (!form || form.dataset.correcting || !panel() || !signedIn()) return Promise.resolve();
    return drafts.put(form.getAttribute("action"), fieldsOf(form)).catch(() => null);
  }

  async function restoreDraft(form) {
    const draft = await drafts.get(form.getAttribute("action")).catch(() => null);
    if (draft && handForm() === form) fill(form, draft.fields);
  }

  // --- The hands that wait, in the sheet ---

  let inFlight = null; // the id of the hand htmx is sending now: neither shown nor sent here
  let inFlightHand = null; // that hand, as kept
  const numbers = new Map(); // hand id -> its number in the sheet, as last shown

  function next() {
    const status = document.getElementById("status");
    return Number(status && status.dataset.next) || 1;
  }

  // This partie's hands of the person logged in, and those kept before hands named who
  // entered them (recorded again by whoever can, or discarded). Someone else's are not
  // shown: #phone-hands counts them.
  async function waitingHere(all) {
    const here = panel();
    if (!here || !signedIn()) return [];
    return (all || (await hands.all())).filter(
      (hand) => hand.action === here.dataset.action && (hand.owner === me() || ownerless(hand))
    );
  }

  // A hand kept before hands named who entered them, or under a token that is no longer
  // his (the server's SECRET_KEY changed): never sent by itself; recorded again (Correct)
  // by whoever may, or discarded.
  function ownerless(hand) {
    if (!hand.owner) return true;
    return signedIn() && hand.owner !== me() && !!hand.ownerName && hand.ownerName === myName();
  }

  function asShown(hand) {
    if (!ownerless(hand)) return hand;
    return Object.assign({}, hand, { state: "refused", reason: words("unknownOwner") });
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

  function rowOf(kept, number, width) {
    const hand = asShown(kept);
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
      // Refused for good (the partie gone or closed to him): nothing to correct.
      if (!hand.permanent) {
        actions.append(button("secondary", words("correct"), { correct: hand.id }));
      }
      actions.append(button("link", words("discard"), { discard: hand.id }));
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
    const all = await hands.all().catch(() => []);
    showPhoneHands(all);
    const here = panel();
    if (!here) return;
    const waiting = (await waitingHere(all).catch(() => [])).filter((hand) => hand.id !== inFlight);
    const body = document.getElementById("sheet-body");
    waitingCount = waiting.length;
    numbers.clear();
    waiting.forEach((hand, n) => numbers.set(hand.id, next() + n));
    if (body) {
      body.querySelectorAll("tr.waiting").forEach((row) => row.remove());
      const width = widthOf(body);
      for (const hand of waiting) body.append(rowOf(hand, numbers.get(hand.id), width));
    }
    const stopped = waiting.map(asShown).find((hand) => hand.state === "refused");
    here.hidden = !waiting.length;
    here.classList.toggle("stopped", !!stopped);
    // Stopped, the way on is to correct or discard the refused hand, not to send again.
    here.querySelector("[data-send-now]").hidden = !!stopped;
    const which = stopped && stopped.permanent ? "stoppedForGood" : "stopped";
    here.querySelector(".queue-count").textContent = stopped
      ? words(which, { number: numbers.get(stopped.id) })
      : words(waiting.length === 1 ? "countOne" : "countOther", { count: waiting.length });
  }

  // On every page: whose hands wait for their owner to log in, and the hands of the
  // person logged in that another partie refused (with the way to it, and to discard).
  function showPhoneHands(all) {
    const box = notice();
    if (!box) return;
    box.replaceChildren();
    const here = panel() && panel().dataset.action;
    const others = new Map(); // account -> { name, count }, in the order first met
    for (const hand of me() ? all : []) {
      if (ownerless(hand)) continue; // on its partie's page, to whoever opens it
      if (hand.owner !== me()) {
        const seen = others.get(hand.owner) || { name: hand.ownerName || "?", count: 0 };
        seen.count += 1;
        others.set(hand.owner, seen);
      } else if (hand.state === "refused" && hand.action !== here) {
        const line = element("p", "elsewhere", words("elsewhere", { reason: hand.reason }));
        const link = element("a", "", words("open"));
        link.href = hand.page;
        line.append(" ", link, " ", button("link", words("discard"), { discard: hand.id }));
        box.append(line);
      }
    }
    const waits = [...others.values()].map(({ name, count }) =>
      element("p", "", words(plural(count) === "one" ? "fromOne" : "fromOther", { count, name }))
    );
    box.prepend(...waits);
    box.hidden = !box.childElementCount;
  }

  function plural(count) {
    try {
      return new Intl.PluralRules(document.documentElement.lang || "en").select(count);
    } catch (error) {
      return count === 1 ? "one" : "other";
    }
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
      owner: me(), // who entered it: sent in his session only
      ownerName: myName(),
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
    if (!storable || !panel() || !signedIn() || !form || form.id !== "hand-form") return;
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
      inFlightHand = Object.assign(hand, { id: inFlight });
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
        // Corrected by the person logged in: his hand now (one kept before hands named
        // who entered them too).
        const fresh = {
          owner: hand.owner,
          ownerName: hand.ownerName,
          fields: hand.fields,
          summary: hand.summary,
          state: "waiting",
          reason: "",
          permanent: false,
        };
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

  // The hand form's request names the account the page is for: in another's session
  // (someone logged in over this page in another tab) the server records nothing.
  document.addEventListener("htmx:configRequest", (event) => {
    if (signedIn() && fromHandForm(event.detail)) event.detail.headers[ACCOUNT] = me();
  });

  // The answer judged before htmx acts on it: one that is not the hand recorded, nor the
  // form with its errors, nor a server error (the form keeps the hand for those two) is
  // not shown, and entry.js says nothing of it; the hand stays on the phone.
  document.addEventListener("htmx:beforeOnLoad", (event) => {
    if (inFlightKey === null || inFlightHand === null || !fromHandForm(event.detail)) return;
    const verdict = judge(inFlightHand, answerOfXhr(event.detail.xhr, inFlightHand.action));
    event.detail.handVerdict = verdict;
    if (!verdict.sent && !verdict.inForm && !verdict.status) event.detail.kept = true;
  });

  document.addEventListener("htmx:beforeSwap", (event) => {
    if (event.detail.kept && fromHandForm(event.detail)) event.detail.shouldSwap = false;
  });

  document.addEventListener("htmx:afterRequest", (event) => {
    if (inFlightKey === null || !fromHandForm(event.detail)) return;
    const xhr = event.detail.xhr;
    if (xhr && xhr.status === 0) return; // never answered: htmx:sendError keeps it
    const id = inFlight;
    const hand = inFlightHand;
    inFlight = inFlightKey = inFlightHand = null;
    if (id === null || hand === null) {
      // Not kept (no store): the form says what happened, as without this script.
      if (event.detail.successful) keepPage();
      else saveDraft(handForm());
      flush();
      return;
    }
    settle(id, hand, event.detail.handVerdict || judge(hand, answerOfXhr(xhr, hand.action)));
  });

  // What the answer to a hand htmx sent means for the hand on the phone.
  async function settle(id, hand, verdict) {
    if (verdict.sent) {
      await hands.remove(id).catch(() => null);
      keepPage();
    } else if (verdict.inForm || verdict.status) {
      // Refused in the form (which shows why) or a server error (the form still holds it,
      // and entry.js says so): it goes on in the form, kept as its draft first.
      await drafts.put(hand.action, hand.fields).catch(() => null);
      await hands.remove(id).catch(() => null);
    } else {
      // Not recorded, and kept: the form is free for the next hand.
      const form = handForm();
      if (form) {
        empty(form);
        saveDraft(form);
      }
      if (verdict.refused) {
        const refusal = { state: "refused", reason: verdict.refused };
        const permanent = !!verdict.permanent;
        await hands.put(Object.assign(hand, refusal, { permanent })).catch(() => null);
      }
      await show();
      say(tellOf(verdict, hand), true);
    }
    flush();
  }

  function tellOf(verdict, hand) {
    if (verdict.refused) return words("refused", { reason: verdict.refused });
    if (verdict.logIn) return words("logIn");
    if (verdict.unconfirmed) return words("unconfirmed");
    return words("kept", { number: numbers.get(hand.id) || next() });
  }

  // In the capture phase, before entry.js: a hand that never reached the server is kept
  // here, and entry.js does not say "send it again".
  function unanswered(event) {
    if (inFlightKey === null || !fromHandForm(event.detail)) return;
    const id = inFlight;
    inFlight = inFlightKey = inFlightHand = null;
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
    if (!panel() || !form) {
      show(); // #phone-hands, on any page
      return;
    }
    if (form.querySelector("[name=form_had_errors]")) saveDraft(form); // refused: keep it typed
    else noteBlank(form);
    show();
  });

  // --- Sending the hands that wait ---

  // The cookie's token where it can be read: a page kept from before a login holds one
  // that no longer passes.
  function csrfToken() {
    const cookie = document.cookie.split("; ").find((c) => c.startsWith("csrftoken="));
    if (cookie) return decodeURIComponent(cookie.slice("csrftoken=".length));
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

  // What an answer to a hand says, whether fetch() or htmx got it:
  // - sent: the server names the hand's key as stored, and its number;
  // - logIn: the session ended (redirected to the login page), or it is another
  //   account's (the answer names another: 409): it waits for its person;
  // - refused: not recorded, with the reason; permanent for a refusal for good, and the
  //   repair path (HX-Redirect to the partie's repair page) is one too, to correct later;
  //   inForm when the answer is the form with its errors;
  // - status: a server error, sent again later; unconfirmed: a 200 that names no hand
  //   stored (a portal's page, say): sent again later too.
  function judge(hand, answer) {
    const stored = answer.header(STORED);
    const number = Number(answer.header(STORED_NUMBER));
    if (stored && stored === hand.key && number > 0) return { sent: true, number };
    if (answer.redirected) return { logIn: true };
    // Made in another person's session (409 for the hand, or a refusal of anything else
    // before it, a missing token say): nothing it says is about this hand.
    const account = answer.header(ACCOUNT);
    if (account && account !== hand.owner) return { logIn: true };
    if (answer.header("HX-Redirect")) return { refused: words("repair") };
    if (FOR_GOOD.includes(answer.status)) {
      return { refused: words(`refused-${answer.status}`), permanent: true };
    }
    if (answer.status >= 400 && answer.status < 500 && ![408, 429].includes(answer.status)) {
      return {
        refused: reasonsIn(answer.text) || words("refusedStatus", { status: answer.status }),
      };
    }
    if (answer.status < 200 || answer.status >= 300) return { status: answer.status };
    const refused = reasonsIn(answer.text);
    return refused ? { refused, inForm: true } : { unconfirmed: true };
  }

  function answerOfXhr(xhr, action) {
    const asked = new URL(action, location.href).pathname;
    const came = xhr.responseURL ? new URL(xhr.responseURL).pathname : asked;
    return {
      status: xhr.status,
      header: (name) => xhr.getResponseHeader(name),
      text: xhr.responseText || "",
      redirected: came !== asked,
    };
  }

  // One hand, as htmx sends the form, naming the account that entered it.
  async function send(hand) {
    const body = new URLSearchParams(hand.fields);
    body.set("entry_key", hand.key);
    let response;
    try {
      response = await fetch(hand.action, {
        method: "POST",
        body,
        headers: { "X-CSRFToken": csrfToken(), "HX-Request": "true", [ACCOUNT]: hand.owner },
        credentials: "same-origin",
      });
    } catch (error) {
      return { offline: true };
    }
    const text = await response.text().catch(() => "");
    return judge(hand, {
      status: response.status,
      header: (name) => response.headers.get(name),
      text,
      redirected: response.redirected,
    });
  }

  // The hands of the person logged in, in order; anyone else's wait for him.
  async function sendAll() {
    const here = panel() && panel().dataset.action;
    const stopped = new Set(); // the parties whose earlier hand waits: theirs wait too
    let sentHere = 0;
    let trouble = null;
    const all = signedIn() ? await hands.all() : [];
    for (const hand of all) {
      if (hand.owner !== me()) continue; // someone else's, or kept before owners were noted
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
        const permanent = !!answer.permanent;
        Object.assign(hand, { state: "refused", reason: answer.refused, permanent });
        await hands.put(hand);
        stopped.add(hand.action);
      } else {
        trouble = answer; // no connection, a server error, logged out: everything waits
        break;
      }
    }
    if (!panel()) {
      await show(); // #phone-hands
      return;
    }
    if (sentHere) await refresh();
    await show();
    if (trouble && trouble.status) say(words("serverError", { status: trouble.status }), true);
    else if (trouble && trouble.logIn) say(words("logIn"), true);
    else if (trouble && trouble.unconfirmed) say(words("unconfirmed"), true);
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
    database().then(
      () => {
        storable = true;
        if (me()) drafts.dropOthers().catch(() => null); // not on the offline page
      },
      () => null
    );
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
