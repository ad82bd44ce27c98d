// Scorekeeper's service worker (served at /sw.js by scorekeeper/pwa/views.py): the site
// opens without a network. A short script of our own, no library: it keeps
// - the static files, from its installation on (each is served from the phone at once and
//   fetched anew behind it, so that a changed file shows on the next visit);
// - the pages of the parties and the list of parties, as they are visited: the network
//   first, the page kept when there is none (or none within a few seconds);
// - a page that says so, for any other page asked for without a network.
// Hands entered without a network wait in the page's own queue (static/js/offline.js),
// which sends them once the connection returns: this script never touches a POST.
//
// A phone is shared at a card table, so the pages kept are one person's. Every page the
// server sends names the account it was made for in a header (scorekeeper/pwa/account.py:
// an opaque token, or "nobody"), and the pages are kept in a cache named for it,
// `scorekeeper-pages-<version>-<account>`. Whenever the network answers for an account,
// the pages kept for any other go before the answer is shown: a login, a logout, a login
// over another, a session that ended (its next page is the login page, for nobody). So
// there is at most one cache of pages, the account's the network last answered for, and
// without a network only it is read: it is the person logged in as far as the phone can
// know. (A session ended on the server while the phone is offline is learnt of with the
// next answer.)
//
// It also shows the notices pushed to this device (scorekeeper/notices/push.py) and opens
// a notice's page when it is tapped. A push names the account it is for; the phone notes
// the account the network last answered for, and a push for anyone else (the phone has
// changed hands since, or its person logged out) shows nothing of what it says: the
// device's subscription is dropped instead, and the push service then tells the server.
"use strict";

const CONFIG = {{ config }};
const STATIC = `scorekeeper-static-${CONFIG.version}`;
const ANY_PAGES = "scorekeeper-pages-";
// The account the network last answered for, kept across versions (one entry).
const WHO = "scorekeeper-who";
const WHO_KEY = "/.well-known/scorekeeper-who";
const PAGES = `${ANY_PAGES}${CONFIG.version}-`; // + the account
const KEPT = new RegExp(CONFIG.kept);
// How long a page may take before the copy on the phone is shown (bad Wi-Fi answers late
// rather than not at all); the network's answer still replaces the copy for next time.
const PATIENCE_MS = 4000;

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(STATIC)
      .then((cache) => cache.addAll([CONFIG.offline, ...CONFIG.assets]))
      .then(() => self.skipWaiting())
  );
});

// Until the pages of an older version have moved in, nothing reads or empties the caches.
let moving = Promise.resolve();

self.addEventListener("activate", (event) => {
  moving = moveIn().catch(() => null);
  event.waitUntil(moving.then(() => self.clients.claim()));
});

// The account a page from the network was made for: its token, "nobody", or null when the
// answer does not say (a redirect, an error of the network, the offline page).
function accountOf(response) {
  if (!response || response.type !== "basic") return null;
  return response.headers.get(CONFIG.account.header) || null;
}

function pagesOf(account) {
  return account && account !== CONFIG.account.nobody ? PAGES + account : null;
}

// The network answered for `account`: the pages kept for anyone else go.
async function answeredFor(account) {
  if (!account) return;
  const mine = pagesOf(account);
  const names = await caches.keys();
  const others = names.filter((name) => name.startsWith(ANY_PAGES) && name !== mine);
  await Promise.all(others.map((name) => caches.delete(name)));
  await (await caches.open(WHO)).put(WHO_KEY, new Response(account));
}

// The account the network last answered for on this phone, null before any answer.
async function lastAccount() {
  const kept = await caches.match(WHO_KEY, { cacheName: WHO });
  return kept ? kept.text() : null;
}

// The cache of the person logged in as far as the phone knows: the one cache of pages,
// none if there are several (a moment between two answers) or none of this version.
async function current() {
  await moving;
  const names = (await caches.keys()).filter((name) => name.startsWith(ANY_PAGES));
  return names.length === 1 && names[0].startsWith(PAGES) ? names[0] : null;
}

// A new version takes the pages the old one kept, each for its account (fetched anew
// where the network allows: they name the files of the new version), then the old caches
// go. A page the network now answers for another account (or for nobody) is not taken,
// and the last account answered for empties the others'; the pages of a version that kept
// them by address alone move only as the network answers for them now.
async function moveIn() {
  const names = await caches.keys();
  const ours = names.filter((name) => name.startsWith("scorekeeper-"));
  const old = ours.filter((name) => name !== STATIC && name !== WHO && !name.startsWith(PAGES));
  let answered = null;
  for (const name of old.filter((n) => n.startsWith(ANY_PAGES))) {
    const rest = name.slice(ANY_PAGES.length); // "<version>-<account>", or "<version>"
    const owner = rest.includes("-") ? rest.slice(rest.indexOf("-") + 1) : null;
    const cache = await caches.open(name);
    for (const request of await cache.keys()) {
      const fresh = await fetch(request.url, { redirect: "manual" }).catch(() => null);
      const account = accountOf(fresh);
      if (account) answered = account;
      let kept = null;
      let keeper = null;
      if (fresh && fresh.ok && pagesOf(account)) {
        [kept, keeper] = [fresh, account];
      } else if (owner && (!fresh || fresh.status >= 500)) {
        [kept, keeper] = [await cache.match(request), owner]; // no answer: kept as it was
      }
      if (kept && (!answered || answered === keeper)) {
        await (await caches.open(pagesOf(keeper))).put(request.url, kept);
      }
    }
  }
  await Promise.all(old.map((name) => caches.delete(name)));
  await answeredFor(answered);
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method !== "GET") {
    // Logging out drops the pages kept: they are the player's, not the next one's.
    if (url.pathname === CONFIG.logout) event.waitUntil(answeredFor(CONFIG.account.nobody));
    return;
  }
  if (url.pathname.startsWith(CONFIG.static)) {
    event.respondWith(asset(event));
  } else if (request.mode === "navigate") {
    event.respondWith(page(request, url));
  }
  // Anything else (an htmx request, a PDF) goes to the network as without this script.
});

async function asset(event) {
  const cache = await caches.open(STATIC);
  const kept = await cache.match(event.request, { ignoreVary: true });
  const fresh = fetch(event.request).then((response) => {
    if (response.ok) cache.put(event.request, response.clone());
    return response;
  });
  if (!kept) return fresh;
  event.waitUntil(fresh.catch(() => null));
  return kept;
}

function keyOf(url) {
  return url.pathname + url.search;
}

// Kept for the account the page was made for: only the page itself, not an error, not a
// redirect (to the login page), not a visitor's.
async function store(url, response) {
  const account = accountOf(response);
  await moving;
  await answeredFor(account); // before the page is shown: the others' pages are gone
  const name = pagesOf(account);
  if (name && KEPT.test(url.pathname) && response.ok && !response.redirected) {
    await (await caches.open(name)).put(keyOf(url), response.clone());
  }
  return response;
}

async function page(request, url) {
  const network = fetch(request).then((response) => store(url, response));
  network.catch(() => null); // a failure is answered below, or comes after the copy shown
  const name = KEPT.test(url.pathname) ? await current() : null;
  const kept = name ? await caches.match(keyOf(url), { cacheName: name, ignoreVary: true }) : null;
  try {
    if (!kept) return await network;
    return await Promise.race([network, later(PATIENCE_MS, kept)]);
  } catch (error) {
    return kept || (await caches.match(CONFIG.offline, { ignoreVary: true })) || Response.error();
  }
}

function later(ms, value) {
  return new Promise((resolve) => setTimeout(() => resolve(value), ms));
}

// The page asks for itself to be kept (or kept anew): on the first visit, before this
// script answered for it, and after a hand recorded in place. Kept for the account the
// network answers for now, whoever the page was for.
self.addEventListener("message", (event) => {
  const data = event.data || {};
  if (typeof data.keep === "string") event.waitUntil(keep(new URL(data.keep, self.location.href)));
});

async function keep(url) {
  if (url.origin !== self.location.origin || !KEPT.test(url.pathname)) return;
  const response = await fetch(keyOf(url), { redirect: "manual" }).catch(() => null);
  if (response && response.type === "basic") await store(url, response);
}

self.addEventListener("push", (event) => {
  event.waitUntil(showPush(event.data));
});

async function showPush(data) {
  let notice = {};
  try {
    notice = data ? data.json() : {};
  } catch (error) {
    notice = {}; // not ours to read: shown as the bare name below
  }
  const who = await lastAccount();
  if (who && notice.account && notice.account !== who) {
    // For someone who no longer uses this phone: nothing of it is shown, and the device
    // takes no more pushes (a browser must show something for each push it is sent).
    const subscription = await self.registration.pushManager.getSubscription();
    if (subscription) await subscription.unsubscribe().catch(() => null);
    return self.registration.showNotification("Scorekeeper", { tag: "scorekeeper" });
  }
  return self.registration.showNotification(notice.title || "Scorekeeper", {
    body: notice.body || "",
    lang: notice.lang || "",
    tag: notice.tag || "scorekeeper",
    icon: CONFIG.icon,
    data: { url: notice.url || "/" },
  });
}

// A tap opens the notice's page (on this site, whatever address the server wrote it
// with). The tap's work is a function of its own, `noticeTapped`, which the browser tests
// call: no DevTools command taps a notification.
self.addEventListener("notificationclick", (event) => {
  event.waitUntil(noticeTapped(event.notification));
});

async function noticeTapped(notification) {
  notification.close();
  const link = new URL((notification.data || {}).url || "/", self.location.href);
  return openPage(new URL(link.pathname + link.search, self.location.origin).href);
}

// The window that shows the page comes to the front; else the site's window this worker
// serves (the one used last) shows it, as a link followed there would; else the page
// opens in a new window. The window the tap brings up is what it answers.
async function openPage(href) {
  const open = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  const showing = open.find((client) => client.url === href);
  if (showing) return toFront(showing);
  const [ours] = await self.clients.matchAll({ type: "window" });
  const moved = ours ? await ours.navigate(href).catch(() => null) : null;
  return moved ? toFront(moved) : self.clients.openWindow(href);
}

// A browser lets a worker bring a window to the front only for a moment after a tap: a
// page that took longer to come stays shown where it is, and the tap is not a failure.
function toFront(client) {
  return client.focus().catch(() => client);
}
