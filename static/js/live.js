// The live view (scorekeeper/table/live.py): a spectator's page polls its own address and
// sends the ETag of what it shows; "unchanged" comes back as 304 with no body. htmx 2
// swaps every 2xx and 3xx answer by default, so without this rule a 304 would empty the
// region and the page would jump. The rule goes first: the first matching code wins.
htmx.config.responseHandling.unshift({ code: "304", swap: false });
