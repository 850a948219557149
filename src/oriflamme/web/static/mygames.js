/* Oriflamme — "my games": the games this browser created or joined, kept in localStorage
 * (the server has no accounts and keeps no list of a person's games; docs/api.md § Lobby).
 * Each entry holds the game's id and the seat token that plays it: the token never leaves the
 * browser except in the body of POST /api/games/status and as the seat of the game's own page.
 * Also the lobby's strings (EN / FR), shared by the home page (lobby.js) and the game page.
 */
(function () {
  "use strict";
  const KEY = "oriflamme.mygames";
  const MAX = 50;  // the server answers about 50 games at most per request

  function list() {
    try {
      const v = JSON.parse(localStorage.getItem(KEY) || "[]");
      return Array.isArray(v) ? v.filter((g) => g && typeof g.id === "string" && typeof g.seat === "string") : [];
    } catch (e) {
      return [];
    }
  }

  function save(items) {
    try { localStorage.setItem(KEY, JSON.stringify(items.slice(0, MAX))); } catch (e) { /* private mode: not kept */ }
  }

  /* Keep (or refresh) a game: {id, seat, ruleset?, scenario?, side?}; the latest first. */
  function remember(g) {
    if (!g || !g.id || !g.seat) return;
    const rest = list().filter((x) => !(x.id === g.id && x.seat === g.seat));
    const old = list().find((x) => x.id === g.id && x.seat === g.seat) || {};
    save([Object.assign({}, old, g, { seen: Date.now() })].concat(rest));
  }

  function forget(id, seat) {
    save(list().filter((x) => !(x.id === id && x.seat === seat)));
  }

  window.MyGames = { list, remember, forget, KEY };

  const STR = {
    en: {
      "lobby.mine": "My games",
      "lobby.mine.help": "The games you created or joined in this browser (kept here only: open a game's own link on another device to play it there).",
      "lobby.mine.none": "No game yet: start one below, or join an open game.",
      "lobby.your_turn": "your turn",
      "lobby.their_turn": "{side} to play",
      "lobby.over": "finished",
      "lobby.won": "{side} won",
      "lobby.draw": "draw",
      "lobby.waiting": "waiting for an opponent",
      "lobby.resume": "Open",
      "lobby.forget": "Forget",
      "lobby.forget.hint": "Remove from this list (the game stays on the server; its link still works)",
      "lobby.gone": "no longer on this server",
      "lobby.hotseat": "hot seat",
      "lobby.seat": "you play {side}",
      "lobby.open": "Open games",
      "lobby.open.help": "Online games waiting for an opponent. Join one to take its free side.",
      "lobby.open.none": "No game is waiting for an opponent.",
      "lobby.join": "Join as {side}",
      "lobby.refresh": "Refresh",
      "lobby.create_open": "Wait for an opponent",
      "lobby.create_open.hint": "An online game listed under \"Open games\": you play the first side, anyone may join the other",
      "lobby.briefing": "Briefing",
      "lobby.briefing.hint": "The scenario, its sides and its map before you start",
      "lobby.briefing.no_preview": "This ruleset shows no map preview.",
      "lobby.briefing.opening": "Opening position (as a spectator sees it)",
      "lobby.close": "Close",
      "notify.ask": "Notify me",
      "notify.ask.hint": "Show a notification when it is my turn while this page is hidden",
      "notify.on": "Notifying ✓",
      "notify.on.hint": "A notification comes when it is your turn while this page is hidden; click to stop",
      "notify.off": "No notifications",
      "notify.denied": "Notifications are blocked in this browser's settings",
      "notify.unsupported": "This browser cannot show notifications",
      "notify.title": "Oriflamme: your turn",
      "notify.body": "{side} to play in {scenario}",
      "lobby.opponent_joined": "Your opponent has joined",
      "lobby.waiting_banner": "Waiting for an opponent: this game is listed under \"Open games\" on the home page.",
    },
    fr: {
      "lobby.mine": "Mes parties",
      "lobby.mine.help": "Les parties créées ou rejointes dans ce navigateur (gardées ici seulement : ouvrez le lien d'une partie sur un autre appareil pour y jouer).",
      "lobby.mine.none": "Aucune partie pour l'instant : lancez-en une ci-dessous, ou rejoignez une partie ouverte.",
      "lobby.your_turn": "à vous de jouer",
      "lobby.their_turn": "à {side} de jouer",
      "lobby.over": "terminée",
      "lobby.won": "victoire : {side}",
      "lobby.draw": "match nul",
      "lobby.waiting": "en attente d'un adversaire",
      "lobby.resume": "Ouvrir",
      "lobby.forget": "Oublier",
      "lobby.forget.hint": "Retirer de cette liste (la partie reste sur le serveur ; son lien marche toujours)",
      "lobby.gone": "n'est plus sur ce serveur",
      "lobby.hotseat": "même écran",
      "lobby.seat": "vous jouez {side}",
      "lobby.open": "Parties ouvertes",
      "lobby.open.help": "Parties en ligne qui attendent un adversaire. Rejoignez-en une pour prendre le camp libre.",
      "lobby.open.none": "Aucune partie n'attend d'adversaire.",
      "lobby.join": "Rejoindre : {side}",
      "lobby.refresh": "Actualiser",
      "lobby.create_open": "Attendre un adversaire",
      "lobby.create_open.hint": "Une partie en ligne listée dans « Parties ouvertes » : vous jouez le premier camp, n'importe qui peut prendre l'autre",
      "lobby.briefing": "Présentation",
      "lobby.briefing.hint": "Le scénario, ses camps et sa carte avant de commencer",
      "lobby.briefing.no_preview": "Ce jeu de règles n'affiche pas d'aperçu de carte.",
      "lobby.briefing.opening": "Position de départ (vue d'un spectateur)",
      "lobby.close": "Fermer",
      "notify.ask": "Me prévenir",
      "notify.ask.hint": "Afficher une notification quand c'est mon tour et que cette page est cachée",
      "notify.on": "Prévenu ✓",
      "notify.on.hint": "Une notification vient quand c'est votre tour et que cette page est cachée ; cliquer pour arrêter",
      "notify.off": "Pas de notifications",
      "notify.denied": "Les notifications sont bloquées dans les réglages de ce navigateur",
      "notify.unsupported": "Ce navigateur ne peut pas afficher de notifications",
      "notify.title": "Oriflamme : à vous de jouer",
      "notify.body": "À {side} de jouer dans {scenario}",
      "lobby.opponent_joined": "Votre adversaire est arrivé",
      "lobby.waiting_banner": "En attente d'un adversaire : cette partie est listée dans « Parties ouvertes » sur la page d'accueil.",
    },
  };
  if (window.I18N && window.I18N.STR) {
    Object.assign(window.I18N.STR.en, STR.en);
    Object.assign(window.I18N.STR.fr, STR.fr);
  }
})();
