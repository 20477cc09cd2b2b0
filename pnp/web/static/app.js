// pnp serve: the little the pages need beyond HTML. Everything works without it,
// except that the table then refreshes only when reloaded, and what is typed but not
// sent is not kept on the phone.
(function () {
  "use strict";

  // The table view asks for its scores again every few seconds (only while it is
  // on screen); the server answers 304 when nothing changed.
  // What changed is said through the page's own live region, which stays while the scores
  // below it are replaced (a region replaced whole may never be read out).
  var live = document.querySelector("[data-live]");
  var status = document.querySelector("[data-live-status]");
  var announced = null;
  function announce() {
    var said = live && live.querySelector("[data-announce]");
    if (!status || !said) return;
    var text = said.getAttribute("data-announce");
    if (announced !== null && text !== announced) status.textContent = text;
    announced = text;
  }
  if (live) {
    announce();
    var etag = live.getAttribute("data-etag");
    var busy = false;
    setInterval(function () {
      if (document.hidden || busy) return;
      busy = true;
      var headers = etag ? { "If-None-Match": etag } : {};
      fetch(live.getAttribute("data-live") + location.search, { headers: headers, credentials: "same-origin" })
        .then(function (response) {
          if (response.status !== 200) return null;
          etag = response.headers.get("ETag");
          return response.text().then(function (html) {
            // Focus inside the part being replaced (a button of the list) would fall to the page.
            var focused = live.contains(document.activeElement) ? document.activeElement.getAttribute("href") : null;
            live.innerHTML = html;
            announce();
            if (focused) {
              var again = live.querySelector('[href="' + focused.replace(/"/g, '\\"') + '"]');
              if (again) again.focus();
            }
          });
        })
        .catch(function () { /* the next tick tries again */ })
        .then(function () { busy = false; });
    }, 3000);
  }

  // Steppers: "−" and "+" change the number beside them, within its bounds. They are drawn
  // hidden (without this script they would do nothing) and shown here. At a bound a button is
  // marked aria-disabled, not disabled: it keeps the focus, and says why it does nothing.
  function bounded(input, value) {
    var low = input.min === "" ? -Infinity : Number(input.min);
    var high = input.max === "" ? Infinity : Number(input.max);
    return Math.min(high, Math.max(low, value));
  }
  function refreshStepper(input) {
    var stepper = input.closest(".stepper");
    if (!stepper) return;
    var value = Number(input.value);
    var atLow = input.min !== "" && value <= Number(input.min);
    var atHigh = input.max !== "" && value >= Number(input.max);
    stepper.querySelector('[data-step="-1"]').setAttribute("aria-disabled", atLow ? "true" : "false");
    stepper.querySelector('[data-step="1"]').setAttribute("aria-disabled", atHigh ? "true" : "false");
  }
  document.querySelectorAll(".stepper").forEach(function (stepper) {
    stepper.classList.add("live");
    stepper.querySelectorAll("[data-step]").forEach(function (button) { button.hidden = false; });
  });
  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-step]");
    if (!button || button.getAttribute("aria-disabled") === "true") return;
    var input = button.closest(".stepper").querySelector("input");
    var current = input.value === "" ? 0 : Number(input.value);
    if (isNaN(current)) current = 0;
    input.value = bounded(input, current + Number(button.getAttribute("data-step")));
    refreshStepper(input);
    input.dispatchEvent(new Event("input", { bubbles: true }));
  });
  document.querySelectorAll(".stepper input").forEach(function (input) {
    refreshStepper(input);
    input.addEventListener("input", function () { refreshStepper(input); });
  });

  // A question asked only for some answer of another (the knockout tokens of a won
  // game) shows only while that answer is chosen; hidden, it is not sent.
  function refreshWhen() {
    document.querySelectorAll("[data-when]").forEach(function (question) {
      var form = question.closest("form");
      var prefix = (question.querySelector("[name]") || { name: "" }).name.split(".")[0] + ".";
      var chosen = form.querySelector('[name="' + prefix + question.getAttribute("data-when") + '"]:checked');
      var show = chosen !== null && chosen.value === question.getAttribute("data-when-value");
      question.hidden = !show;
      question.querySelectorAll("input").forEach(function (input) { input.disabled = !show; });
    });
  }
  document.addEventListener("change", refreshWhen);
  refreshWhen();

  // Drafts: what is typed in an entry form is kept on this phone (localStorage), by
  // session, day and player, until the server has it; a reload, a closed tab or a lost
  // Wi-Fi loses nothing. The page the server answers a send with names the draft it
  // now holds (data-saved), which is then forgotten.
  var PREFIX = "pnp-draft:";
  var store = null;
  try { store = window.localStorage; } catch (error) { store = null; }
  var saved = document.querySelector("main[data-saved]");
  if (store && saved) store.removeItem(PREFIX + saved.getAttribute("data-saved"));
  var entryForm = document.querySelector("form[data-draft]");
  if (store && entryForm) {
    var draftKey = PREFIX + entryForm.getAttribute("data-draft");
    var version = entryForm.querySelector('input[name="v"]');
    var values = function () {
      var found = {};
      entryForm.querySelectorAll("input[name]").forEach(function (input) {
        if (input.type === "hidden" || input.disabled) return;
        if (input.type === "radio") {
          if (input.checked) found[input.name] = input.value;
        } else {
          found[input.name] = input.value;
        }
      });
      return found;
    };
    var shown = JSON.stringify(values());
    var echoed = entryForm.hasAttribute("data-echo");
    var keep = function () {
      var now = values();
      if (JSON.stringify(now) === shown && !echoed) {
        store.removeItem(draftKey);
        return;
      }
      try {
        store.setItem(draftKey, JSON.stringify({ v: version.value, values: now }));
      } catch (error) { /* storage full or refused: the form itself still holds the values */ }
    };
    var draft = null;
    try { draft = JSON.parse(store.getItem(draftKey) || "null"); } catch (error) { draft = null; }
    if (echoed) {
      // The server showed back what was typed (refused, or changed meanwhile): keep it,
      // against the version this page shows.
      keep();
    } else if (draft && draft.values) {
      var restored = 0;
      Object.keys(draft.values).forEach(function (name) {
        var value = draft.values[name];
        entryForm.querySelectorAll("input[name]").forEach(function (input) {
          if (input.name !== name) return;
          if (input.type === "radio") {
            var on = input.value === value;
            if (on && !input.checked) restored++;
            input.checked = on;
          } else if (input.value !== value) {
            input.value = value;
            restored++;
          }
        });
      });
      if (restored) {
        // Sent against the version it was typed on: if that changed meanwhile, the
        // server refuses it and shows what is saved now beside it.
        version.value = draft.v;
        var note = document.createElement("div");
        note.className = "draft-note";
        note.setAttribute("role", "status");
        var text = document.createElement("span");
        text.textContent = entryForm.getAttribute("data-restored");
        var discard = document.createElement("button");
        discard.type = "button";
        discard.textContent = entryForm.getAttribute("data-discard");
        discard.addEventListener("click", function () {
          store.removeItem(draftKey);
          location.reload();
        });
        note.appendChild(text);
        note.appendChild(discard);
        entryForm.insertBefore(note, entryForm.firstChild);
        document.querySelectorAll(".stepper input").forEach(refreshStepper);
        refreshWhen();
      } else {
        store.removeItem(draftKey);
      }
    }
    entryForm.addEventListener("input", keep);
    entryForm.addEventListener("change", keep);
  }

  // A game that asks something when a session starts (Card Hunter's difficulty) shows
  // its question only while it is the game chosen; hidden, it is not sent.
  var startQuestions = document.querySelectorAll(".start-questions[data-game]");
  var refreshStart = function () {
    var chosen = document.querySelector('input[name="game"]:checked');
    startQuestions.forEach(function (box) {
      var show = chosen !== null && chosen.value === box.getAttribute("data-game");
      box.hidden = !show;
      box.disabled = !show;
    });
  };
  if (startQuestions.length) {
    document.addEventListener("change", refreshStart);
    refreshStart();
  }

  // After a refused entry, bring the first answer to correct into view.
  var wrong = document.querySelector(".question.wrong, .question.changed");
  if (wrong) wrong.scrollIntoView({ block: "center" });

  // "Copy" buttons put the text of the field they name on the clipboard.
  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-copy]");
    if (!button) return;
    var field = document.getElementById(button.getAttribute("data-copy"));
    if (!field) return;
    field.select();
    var done = function () {
      var label = button.textContent;
      button.textContent = button.getAttribute("data-done") || label;
      setTimeout(function () { button.textContent = label; }, 1500);
    };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(field.value).then(done, function () {});
    } else if (document.execCommand("copy")) {
      done();
    }
  });
})();
