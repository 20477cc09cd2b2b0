// pnp serve: the little the pages need beyond HTML. Everything works without it,
// except that the table then refreshes only when reloaded.
(function () {
  "use strict";

  // The table view asks for its scores again every few seconds (only while it is
  // on screen); the server answers 304 when nothing changed.
  var live = document.querySelector("[data-live]");
  if (live) {
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
          return response.text().then(function (html) { live.innerHTML = html; });
        })
        .catch(function () { /* the next tick tries again */ })
        .then(function () { busy = false; });
    }, 3000);
  }

  // Steppers: "−" and "+" change the number beside them, within its bounds.
  function bounded(input, value) {
    var low = input.min === "" ? -Infinity : Number(input.min);
    var high = input.max === "" ? Infinity : Number(input.max);
    return Math.min(high, Math.max(low, value));
  }
  function refreshStepper(input) {
    var stepper = input.closest(".stepper");
    if (!stepper) return;
    var value = Number(input.value);
    stepper.querySelector('[data-step="-1"]').disabled = input.min !== "" && value <= Number(input.min);
    stepper.querySelector('[data-step="1"]').disabled = input.max !== "" && value >= Number(input.max);
  }
  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-step]");
    if (!button) return;
    var input = button.closest(".stepper").querySelector("input");
    var current = input.value === "" ? 0 : Number(input.value);
    if (isNaN(current)) current = 0;
    input.value = bounded(input, current + Number(button.getAttribute("data-step")));
    refreshStepper(input);
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

  // After a refused entry, bring the first answer to correct into view.
  var wrong = document.querySelector(".question.wrong");
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
