// Scorekeeper's service worker (served at /sw.js by scorekeeper/pwa/views.py): the site
// opens without a network. A short script of our own, no library: it keeps
// - the static files, from its installation on (each is served from the phone at once and
//   fetched anew behind it, so that a changed file shows on the next visit);
// - the pages of the parties and the list of parties, as they are visited: the network
//   first, the page kept when there is none (or none within a few seconds);
// - a page that says so, for any other page asked for without a network.
// Hands entered without a network wait in the page's own queue (static/js/offline.js),
// which sends them once the connection returns: this script never touches a POST.
"use strict";

const CONFIG = {{ config }};
const STATIC = `scorekeeper-static-${CONFIG.version}`;
const PAGES = `scorekeeper-pages-${CONFIG.version}`;
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

self.addEventListener("activate", (event) => {
  event.waitUntil(moveIn().then(() => self.clients.claim()));
});

// A new version takes the pages the old one kept (fetched anew where the network allows:
// they name the files of the new version), then the old caches go.
async function moveIn() {
  const names = await caches.keys();
  const ours = names.filter((name) => name.startsWith("scorekeeper-"));
  const old = ours.filter((name) => name !== STATIC && name !== PAGES);
  const pages = await caches.open(PAGES);
  for (const name of old.filter((n) => n.startsWith("scorekeeper-pages-"))) {
    const cache = await caches.open(name);
    for (const request of await cache.keys()) {
      const fresh = await fetch(request.url, { redirect: "manual" }).catch(() => null);
      const kept = fresh && fresh.ok ? fresh : await cache.match(request);
      if (kept) await pages.put(request.url, kept);
    }
  }
  await Promise.all(old.map((name) => caches.delete(name)));
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method !== "GET") {
    // Logging out drops the pages kept: they are the player's, not the next one's.
    if (url.pathname === CONFIG.logout) event.waitUntil(caches.delete(PAGES));
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

async function page(request, url) {
  const keeps = KEPT.test(url.pathname);
  const network = fetch(request).then(async (response) => {
    // Only the page itself: not an error, not a redirect (to the login page).
    if (keeps && response.ok && response.type === "basic" && !response.redirected) {
      const cache = await caches.open(PAGES);
      await cache.put(keyOf(url), response.clone());
    }
    return response;
  });
  network.catch(() => null); // a failure is answered below, or comes after the copy shown
  const kept = keeps
    ? await caches.match(keyOf(url), { cacheName: PAGES, ignoreVary: true })
    : null;
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
// script answered for it, and after a hand recorded in place.
self.addEventListener("message", (event) => {
  const data = event.data || {};
  if (typeof data.keep === "string") event.waitUntil(keep(new URL(data.keep, self.location.href)));
});

async function keep(url) {
  if (url.origin !== self.location.origin || !KEPT.test(url.pathname)) return;
  const response = await fetch(keyOf(url), { redirect: "manual" }).catch(() => null);
  if (response && response.ok && response.type === "basic") {
    await (await caches.open(PAGES)).put(keyOf(url), response);
  }
}
