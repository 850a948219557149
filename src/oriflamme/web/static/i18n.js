/* Oriflamme — the browser client's own strings (EN / FR).
 *
 * The engine's texts (log, explanations, refusals) come from the server with ?lang=; only the
 * interface's labels live here. The chosen language is kept in localStorage.
 */
(function () {
  "use strict";

  const STR = {
    en: {
      "app.title": "Oriflamme",
      "app.tagline": "Cry Havoc · Magna Carta — every rule enforced and explained",
      "lang.label": "Language",
      "home.scenarios": "Scenarios",
      "home.loading": "Loading the scenarios…",
      "home.sides": "Sides",
      "home.turns": "Turns",
      "home.weather": "Weather",
      "home.size": "Map",
      "home.characters": "Characters",
      "home.victory": "Victory",
      "home.hotseat": "Hot-seat",
      "home.hotseat.hint": "Both sides on this device",
      "home.online": "Online (two players)",
      "home.online.hint": "One link per side",
      "home.seed": "Seed (optional)",
      "home.links.title": "Online game created",
      "home.links.help": "Send each player the link of their side. Anyone holding a link plays that side: keep them private.",
      "home.copy": "Copy",
      "home.copied": "Copied",
      "home.open": "Open",
      "home.side_link": "Link for {side}",
      "home.creating": "Creating the game…",
      "weather.clear": "clear",
      "weather.fog": "fog",
      "weather.rain": "rain",
      "weather.night": "night",

      "play.loading": "Loading the game…",
      "play.no_seat": "This link has no seat token (#seat=…). Open the link given when the game was created.",
      "play.home": "Scenarios",
      "play.turn": "Turn {turn}/{last}",
      "play.active": "Phase of {side}",
      "play.to_act": "{side} to act",
      "play.waiting": "Waiting for {side}",
      "play.over": "Game over",
      "play.winner": "Winner: {side}",
      "play.draw": "No winner",
      "play.seat": "Your seat: {seat}",
      "play.seat.hotseat": "hot-seat (both sides)",
      "play.end_step": "End step",
      "play.end_step.title": "End the current step and go on to the next (§2.1)",
      "step.offensive_fire": "Offensive fire",
      "step.movement": "Movement",
      "step.melee": "Combat",
      "step.recovery": "Recovery",
      "step.recovery.title": "Stunned characters get up (automatic)",
      "pending.retreat": "{side} must choose a retreat for {chars}",
      "pending.advance": "{side} may advance {chars} after combat",
      "pending.casualty": "{side} must choose which character takes the blow: {chars}",
      "pending.defensive_fire": "{side} may fire defensively at {chars}: designate shooters, then fire — or let him pass",
      "pending.other": "{side} must answer: {kind} ({chars})",
      "pending.none": "",
      "panel.selection": "Selection",
      "panel.help.fire": "Select one of your shooters (outlined), then a target.",
      "panel.help.move": "Select one of your characters, then a highlighted hex (movement cost shown). Hover to see the path.",
      "panel.help.melee": "Select one of your characters in contact to see its attacks.",
      "panel.help.prompt": "Answer the prompt below.",
      "panel.help.watch": "Not your turn: you can look around, replay and read the log.",
      "panel.help.over": "The game is over. Replay it or download the record.",
      "panel.no_moves": "{name} cannot move now (no hex reachable). Click a hex to ask why.",
      "panel.no_fires": "{name} has no legal target now. Click an enemy to ask why.",
      "panel.no_attacks": "{name} has no attack now. Click an enemy to ask why.",
      "panel.moves": "{n} hexes reachable — click one to move (cost on each hex).",
      "panel.fires": "{n} legal target(s) — click one for the odds before shooting.",
      "panel.attacks": "Attack groups with {name}:",
      "panel.not_yours": "{name} belongs to {side}.",
      "panel.deselect": "Deselect",
      "char.attack": "Attack",
      "char.defence": "Defence",
      "char.movement": "Movement",
      "char.armour": "armoured",
      "char.mounted": "mounted",
      "char.weapon": "Weapon",
      "char.status": "Status",
      "char.points_left": "Movement points left",
      "char.hex": "Hex",
      "char.type": "Type",
      "status.healthy": "healthy",
      "status.wounded": "wounded",
      "status.stunned": "stunned",
      "status.dead": "dead",
      "preview.fire": "Fire: {shooter} → {target}",
      "preview.attack": "Attack: {attackers} → {defenders}",
      "preview.band": "Range",
      "preview.distance": "Distance",
      "preview.cover": "Cover",
      "preview.die_modifier": "Die modifier",
      "preview.odds": "Odds",
      "preview.column": "Column",
      "preview.shift": "Column shift",
      "preview.table": "Table",
      "preview.explanation": "How the referee reads it",
      "preview.probabilities": "Chance of each result (one die)",
      "preview.commit": "Commit (roll)",
      "preview.cancel": "Cancel",
      "preview.line": "Line of fire drawn on the board",
      "band.short": "short",
      "band.medium": "medium",
      "band.long": "long",
      "cover.none": "none",
      "cover.light": "light",
      "cover.medium": "medium",
      "cover.heavy": "heavy",
      "cover.total": "total",
      "why.title": "Why not?",
      "why.legal": "This action is legal.",
      "why.line_note": "(asked along the straight line to that hex)",
      "why.close": "Close",
      "prompt.title": "Your decision",
      "prompt.retreat": "Retreat {char} to {to}",
      "prompt.advance": "Advance {char} to {to}",
      "prompt.casualty": "{char} takes the blow",
      "prompt.decline": "Decline (stay in place)",
      "prompt.pass": "Let him pass",
      "declare.title": "Fire frequency (optional)",
      "declare.help": "Declare it to fire defensively in the enemy's next phase: the movement limit applies now, and no attack this phase (§5.1–§5.3).",
      "prompt.designate": "Designate {char} to fire",
      "prompt.volley": "Fire (the designated shooters)",
      "prompt.declare": "{char}: declare {fire} fire",
      "fire.offensive_or_defensive": "offensive OR defensive",
      "fire.offensive_and_defensive": "offensive + defensive",
      "fire.defensive": "defensive only",
      "prompt.hint": "Destinations are highlighted on the board: click one, or a button.",
      "log.title": "Log",
      "log.explanation": "explanation",
      "log.die": "die {die} → {mod}",
      "undo.undo": "Undo",
      "undo.undo.title": "Take back the last action (only if it rolled no die)",
      "undo.ask": "Ask to undo",
      "undo.asked": "Undo requested — waiting for the opponent",
      "undo.requested": "{side} asks to undo the last action",
      "undo.accept": "Accept",
      "undo.decline": "Decline",
      "undo.done": "Last action undone",
      "undo.declined": "Undo declined",
      "replay.toggle": "Replay",
      "replay.exit": "Back to the game",
      "replay.position": "After action {v} of {n} — turn {turn}, {side}, {step}",
      "replay.start": "Start of the game",
      "replay.first": "First",
      "replay.prev": "Previous",
      "replay.next": "Next",
      "replay.last": "Last",
      "export.record": "Record (JSON)",
      "export.report": "Report",
      "export.title": "Download",
      "zoom.in": "Zoom in",
      "zoom.out": "Zoom out",
      "zoom.reset": "Fit the map",
      "legend.title": "Legend",
      "legend.cost": "cost {foot}",
      "legend.cost_armoured": "armoured {n}",
      "legend.cost_mounted": "mounted {n}",
      "legend.cover": "cover: {c}",
      "table.vs_foot": "against foot",
      "table.vs_mounted": "against mounted",
      "legend.blocks": "blocks sight",
      "legend.elevation": "Level n (darker)",
      "legend.impassable": "impassable",
      "legend.features": "Hexsides",
      "legend.counter": "Counter: name on top; movement in the white box; attack bottom left, defence bottom right (circled if armoured). ➶ missile weapon, ♞ mounted; red corner = wounded, grey and tilted with ✶ = stunned, cross = dead.",
      "conn.live": "live",
      "conn.offline": "reconnecting…",
      "error.network": "Network error: {msg}",
      "error.http": "Error {status}",
      "error.stale": "The game moved on; the board is up to date again.",
      "toast.moved": "Done",
      "results.title": "Results",
      "result.unknown": "see the table",
    },
    fr: {
      "app.title": "Oriflamme",
      "app.tagline": "Cry Havoc · Magna Carta — toutes les règles appliquées et expliquées",
      "lang.label": "Langue",
      "home.scenarios": "Scénarios",
      "home.loading": "Chargement des scénarios…",
      "home.sides": "Camps",
      "home.turns": "Tours",
      "home.weather": "Météo",
      "home.size": "Carte",
      "home.characters": "Personnages",
      "home.victory": "Victoire",
      "home.hotseat": "Même écran",
      "home.hotseat.hint": "Les deux camps sur cet appareil",
      "home.online": "En ligne (deux joueurs)",
      "home.online.hint": "Un lien par camp",
      "home.seed": "Graine (facultatif)",
      "home.links.title": "Partie en ligne créée",
      "home.links.help": "Envoyez à chaque joueur le lien de son camp. Qui détient un lien joue ce camp : gardez-les privés.",
      "home.copy": "Copier",
      "home.copied": "Copié",
      "home.open": "Ouvrir",
      "home.side_link": "Lien pour {side}",
      "home.creating": "Création de la partie…",
      "weather.clear": "beau temps",
      "weather.fog": "brouillard",
      "weather.rain": "pluie",
      "weather.night": "nuit",

      "play.loading": "Chargement de la partie…",
      "play.no_seat": "Ce lien n'a pas de jeton de place (#seat=…). Ouvrez le lien donné à la création de la partie.",
      "play.home": "Scénarios",
      "play.turn": "Tour {turn}/{last}",
      "play.active": "Phase de {side}",
      "play.to_act": "À {side} de jouer",
      "play.waiting": "En attente de {side}",
      "play.over": "Partie terminée",
      "play.winner": "Vainqueur : {side}",
      "play.draw": "Pas de vainqueur",
      "play.seat": "Votre place : {seat}",
      "play.seat.hotseat": "même écran (les deux camps)",
      "play.end_step": "Fin de l'étape",
      "play.end_step.title": "Terminer l'étape en cours et passer à la suivante (§2.1)",
      "step.offensive_fire": "Tir offensif",
      "step.movement": "Mouvement",
      "step.melee": "Combat",
      "step.recovery": "Récupération",
      "step.recovery.title": "Les personnages assommés se relèvent (automatique)",
      "pending.retreat": "{side} doit choisir la retraite de {chars}",
      "pending.advance": "{side} peut faire avancer {chars} après le combat",
      "pending.casualty": "{side} doit choisir qui encaisse le coup : {chars}",
      "pending.defensive_fire": "{side} peut effectuer un tir défensif sur {chars} : désignez les tireurs, puis tirez — ou laissez-le passer",
      "pending.other": "{side} doit répondre : {kind} ({chars})",
      "pending.none": "",
      "panel.selection": "Sélection",
      "panel.help.fire": "Choisissez un de vos tireurs (entouré), puis une cible.",
      "panel.help.move": "Choisissez un de vos personnages, puis une case en surbrillance (coût indiqué). Survolez pour voir le chemin.",
      "panel.help.melee": "Choisissez un de vos personnages au contact pour voir ses attaques.",
      "panel.help.prompt": "Répondez à la question ci-dessous.",
      "panel.help.watch": "Ce n'est pas votre tour : vous pouvez regarder, revoir la partie et lire le journal.",
      "panel.help.over": "La partie est terminée. Revoyez-la ou téléchargez l'enregistrement.",
      "panel.no_moves": "{name} ne peut pas bouger maintenant (aucune case accessible). Cliquez une case pour savoir pourquoi.",
      "panel.no_fires": "{name} n'a aucune cible permise. Cliquez un ennemi pour savoir pourquoi.",
      "panel.no_attacks": "{name} n'a aucune attaque possible. Cliquez un ennemi pour savoir pourquoi.",
      "panel.moves": "{n} cases accessibles — cliquez-en une pour bouger (coût sur chaque case).",
      "panel.fires": "{n} cible(s) permise(s) — cliquez-en une pour voir les chances avant de tirer.",
      "panel.attacks": "Groupes d'attaque avec {name} :",
      "panel.not_yours": "{name} appartient à {side}.",
      "panel.deselect": "Désélectionner",
      "char.attack": "Attaque",
      "char.defence": "Défense",
      "char.movement": "Mouvement",
      "char.armour": "en armure",
      "char.mounted": "monté",
      "char.weapon": "Arme",
      "char.status": "État",
      "char.points_left": "Points de mouvement restants",
      "char.hex": "Case",
      "char.type": "Type",
      "status.healthy": "indemne",
      "status.wounded": "blessé",
      "status.stunned": "assommé",
      "status.dead": "mort",
      "preview.fire": "Tir : {shooter} → {target}",
      "preview.attack": "Attaque : {attackers} → {defenders}",
      "preview.band": "Portée",
      "preview.distance": "Distance",
      "preview.cover": "Couvert",
      "preview.die_modifier": "Modificateur du dé",
      "preview.odds": "Rapport de forces",
      "preview.column": "Colonne",
      "preview.shift": "Décalage de colonne",
      "preview.table": "Table",
      "preview.explanation": "Lecture de l'arbitre",
      "preview.probabilities": "Chance de chaque résultat (un dé)",
      "preview.commit": "Valider (lancer le dé)",
      "preview.cancel": "Annuler",
      "preview.line": "Ligne de tir tracée sur la carte",
      "band.short": "courte",
      "band.medium": "moyenne",
      "band.long": "longue",
      "cover.none": "aucun",
      "cover.light": "léger",
      "cover.medium": "moyen",
      "cover.heavy": "lourd",
      "cover.total": "total",
      "why.title": "Pourquoi pas ?",
      "why.legal": "Cette action est permise.",
      "why.line_note": "(demandé le long de la ligne droite jusqu'à cette case)",
      "why.close": "Fermer",
      "prompt.title": "Votre décision",
      "prompt.retreat": "{char} recule en {to}",
      "prompt.advance": "{char} avance en {to}",
      "prompt.casualty": "{char} encaisse le coup",
      "prompt.decline": "Refuser (rester sur place)",
      "prompt.pass": "Le laisser passer",
      "declare.title": "Fréquence de tir (facultatif)",
      "declare.help": "Déclarez-la pour tirer défensivement pendant la prochaine phase adverse : la limite de mouvement s'applique dès maintenant, et pas d'attaque pendant cette phase (§5.1–§5.3).",
      "prompt.designate": "Désigner {char} pour tirer",
      "prompt.volley": "Tirer (les tireurs désignés)",
      "prompt.declare": "{char} : déclarer un tir {fire}",
      "fire.offensive_or_defensive": "offensif OU défensif",
      "fire.offensive_and_defensive": "offensif + défensif",
      "fire.defensive": "défensif seulement",
      "prompt.hint": "Les destinations sont en surbrillance sur la carte : cliquez-en une, ou un bouton.",
      "log.title": "Journal",
      "log.explanation": "explication",
      "log.die": "dé {die} → {mod}",
      "undo.undo": "Annuler le coup",
      "undo.undo.title": "Reprendre la dernière action (seulement si aucun dé n'a été lancé)",
      "undo.ask": "Demander l'annulation",
      "undo.asked": "Annulation demandée — en attente de l'adversaire",
      "undo.requested": "{side} demande à annuler la dernière action",
      "undo.accept": "Accepter",
      "undo.decline": "Refuser",
      "undo.done": "Dernière action annulée",
      "undo.declined": "Annulation refusée",
      "replay.toggle": "Revoir",
      "replay.exit": "Retour à la partie",
      "replay.position": "Après l'action {v} sur {n} — tour {turn}, {side}, {step}",
      "replay.start": "Début de la partie",
      "replay.first": "Début",
      "replay.prev": "Précédente",
      "replay.next": "Suivante",
      "replay.last": "Fin",
      "export.record": "Enregistrement (JSON)",
      "export.report": "Compte rendu",
      "export.title": "Télécharger",
      "zoom.in": "Zoomer",
      "zoom.out": "Dézoomer",
      "zoom.reset": "Voir toute la carte",
      "legend.title": "Légende",
      "legend.cost": "coût {foot}",
      "legend.cost_armoured": "en armure {n}",
      "legend.cost_mounted": "monté {n}",
      "legend.cover": "couvert : {c}",
      "table.vs_foot": "contre piétons",
      "table.vs_mounted": "contre cavaliers",
      "legend.blocks": "bloque la vue",
      "legend.elevation": "Niveau n (plus sombre)",
      "legend.impassable": "infranchissable",
      "legend.features": "Côtés de case",
      "legend.counter": "Pion : nom en haut ; mouvement dans la case blanche ; attaque en bas à gauche, défense en bas à droite (cerclée si en armure). ➶ arme de jet, ♞ monté ; coin rouge = blessé, gris et penché avec ✶ = assommé, croix = mort.",
      "conn.live": "en direct",
      "conn.offline": "reconnexion…",
      "error.network": "Erreur réseau : {msg}",
      "error.http": "Erreur {status}",
      "error.stale": "La partie a avancé ; la carte est de nouveau à jour.",
      "toast.moved": "Fait",
      "results.title": "Résultats",
      "result.unknown": "voir la table",
    },
  };

  /* What each result letter means, for the preview's chart. The server's rulings carry the
   * letters and their probabilities but not (yet) their meaning before the die is rolled, so
   * the printed tables' texts are repeated here, keyed by the ruling's kind and table. A
   * ruling that carries `outcomes` / `results` texts itself takes precedence (see play.js). */


  const KEY = "oriflamme.lang";

  function lang() {
    let l = null;
    try { l = localStorage.getItem(KEY); } catch (e) { /* private mode */ }
    if (l === "en" || l === "fr") return l;
    return (navigator.language || "en").toLowerCase().startsWith("fr") ? "fr" : "en";
  }

  function setLang(l) {
    if (l !== "en" && l !== "fr") return;
    try { localStorage.setItem(KEY, l); } catch (e) { /* ignore */ }
    document.documentElement.lang = l;
  }

  function t(key, params) {
    const l = lang();
    let s = (STR[l] && STR[l][key]);
    if (s === undefined) s = STR.en[key];
    if (s === undefined) return key;
    if (params) {
      s = s.replace(/\{(\w+)\}/g, (m, k) => (params[k] !== undefined && params[k] !== null ? String(params[k]) : m));
    }
    return s;
  }

  /* Fill every [data-i18n] element (text) and [data-i18n-title] (tooltip) under root. */
  function apply(root) {
    root = root || document;
    root.querySelectorAll("[data-i18n]").forEach((el) => { el.textContent = t(el.dataset.i18n); });
    root.querySelectorAll("[data-i18n-title]").forEach((el) => {
      el.title = t(el.dataset.i18nTitle);
      if (!el.getAttribute("aria-label")) el.setAttribute("aria-label", el.title);
    });
    root.querySelectorAll("[data-i18n-placeholder]").forEach((el) => { el.placeholder = t(el.dataset.i18nPlaceholder); });
    document.documentElement.lang = lang();
  }


  /* A language switch (two buttons) in `el`; `onChange(lang)` after a change. */
  function mountSwitch(el, onChange) {
    el.innerHTML = "";
    el.setAttribute("role", "group");
    el.setAttribute("aria-label", t("lang.label"));
    for (const l of ["en", "fr"]) {
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = l.toUpperCase();
      b.className = "lang-btn" + (l === lang() ? " active" : "");
      b.dataset.testid = "lang-" + l;
      b.setAttribute("aria-pressed", l === lang() ? "true" : "false");
      b.addEventListener("click", () => {
        if (l === lang()) return;
        setLang(l);
        el.querySelectorAll("button").forEach((x) => {
          const on = x.dataset.testid === "lang-" + l;
          x.classList.toggle("active", on);
          x.setAttribute("aria-pressed", on ? "true" : "false");
        });
        onChange(l);
      });
      el.appendChild(b);
    }
  }

  window.I18N = { t, lang, setLang, apply, mountSwitch, STR };
})();
