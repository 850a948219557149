/* Oriflamme — the game page's side of the lobby (docs/api.md § Lobby, § Notifications):
 * - the game goes into "my games" (localStorage, mygames.js) when its page opens;
 * - "notify me when it is my turn": with the browser's permission, a notification when an
 *   update makes it this seat's turn while the page is hidden;
 * - an open game says it waits for an opponent, and when the opponent comes.
 * play.js calls TurnWatch.onView(view, gameId, token) after each view it receives.
 */
(function () {
  "use strict";
  const { t } = window.I18N;
  const KEY = "oriflamme.notify";
  let last = null;          // the previous view's {version, can_act, open}
  let button = null;

  const supported = () => "Notification" in window;
  const wanted = () => localStorage.getItem(KEY) === "on";

  function sideName(view, id) {
    const s = (view.sides || []).find((x) => x.id === id);
    if (!s) return id || "";
    return I18N.lang() === "fr" ? s.name_fr || s.name : s.name;
  }

  function label() {
    if (!button) return;
    if (!supported() || Notification.permission === "denied") {
      button.textContent = t("notify.off");
      button.title = t(supported() ? "notify.denied" : "notify.unsupported");
      button.disabled = true;
      return;
    }
    const on = wanted() && Notification.permission === "granted";
    button.textContent = on ? t("notify.on") : t("notify.ask");
    button.title = on ? t("notify.on.hint") : t("notify.ask.hint");
    button.setAttribute("aria-pressed", on ? "true" : "false");
  }

  async function toggle() {
    if (!supported()) return;
    if (wanted() && Notification.permission === "granted") {
      localStorage.setItem(KEY, "off");
    } else {
      const p = Notification.permission === "granted" ? "granted" : await Notification.requestPermission();
      localStorage.setItem(KEY, p === "granted" ? "on" : "off");
    }
    label();
  }

  function mount() {
    const tools = document.querySelector(".play-top .tools");
    if (!tools || button) return;
    button = document.createElement("button");
    button.type = "button";
    button.className = "btn notify-toggle";
    button.dataset.testid = "notify-toggle";
    button.addEventListener("click", toggle);
    tools.insertBefore(button, tools.firstChild);
    label();
  }

  function banner(view) {
    let box = document.getElementById("waiting-banner");
    const waiting = (view.open_seats || []).length > 0;
    if (!waiting) { if (box) box.remove(); return; }
    if (!box) {
      box = document.createElement("div");
      box.id = "waiting-banner";
      box.className = "waiting-banner";
      box.dataset.testid = "waiting-banner";
      box.setAttribute("role", "status");
      const main = document.querySelector("main") || document.body;
      main.insertBefore(box, main.firstChild);
    }
    box.textContent = t("lobby.waiting_banner");
  }

  function onView(view, gameId, token) {
    if (!view) return;
    mount();
    label();
    if (gameId && token && window.MyGames) {
      MyGames.remember({ id: gameId, seat: token, ruleset: view.ruleset, scenario: view.scenario_id || view.scenario || "",
                         side: view.seat });
    }
    banner(view);
    const open = (view.open_seats || []).length;
    if (last && last.open && !open && window.DOM) {
      const box = document.getElementById("toasts");
      if (box) {
        const tt = window.DOM.el("div", { class: "toast info", testid: "toast", role: "status" }, t("lobby.opponent_joined"));
        box.appendChild(tt);
        setTimeout(() => tt.remove(), 6000);
      }
    }
    const becameMine = last && view.version !== last.version && view.can_act && !last.can_act;
    if (becameMine && document.hidden && wanted() && supported() && Notification.permission === "granted") {
      const to = view.seat === "hotseat" ? sideName(view, view.to_act) : sideName(view, view.seat);
      try {
        new Notification(t("notify.title"), {
          body: t("notify.body", { side: to, scenario: document.getElementById("scenario-name")?.textContent || "" }),
          tag: "oriflamme-" + gameId,
        });
      } catch (e) { /* some browsers allow notifications only from a service worker */ }
    }
    last = { version: view.version, can_act: view.can_act, open };
  }

  window.TurnWatch = { onView, label };
})();
