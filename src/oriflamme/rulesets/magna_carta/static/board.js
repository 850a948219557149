/* Oriflamme — the SVG board: hex map, counters, highlights, zoom and pan.
 *
 * Pure drawing: the board knows hexes, pixels and colours, never a rule. It reports clicks on
 * hexes and counters and hovering to its owner (module.js, Magna Carta's browser module), which
 * asks the server what they mean.
 *
 * Hexes are flat-topped, odd-q; pixel positions come from the axial (q, r) the server gives:
 *   x = 1.5·S·q,  y = √3·S·(r + q/2)
 */
(function () {
  "use strict";
  const NS = "http://www.w3.org/2000/svg";
  const SQ3 = Math.sqrt(3);
  const S = 32;                       // hex size (centre to corner), in SVG units

  /* Counters read at every zoom (issue 15). Below the scale P_REF (screen px per SVG unit),
   * counters, animals and dice grow by k = P_REF / scale, up to K_MAX (a counter then just fills
   * the 48 units between two columns of hexes: neighbours never overlap). The counter's face
   * follows the size its text would have on screen (p = scale * k):
   *   full     the name, the type, the movement box, attack and defence (names >= NAME_MIN_PX);
   *   medium   a larger name, attack and defence (the movement is in the counter's card);
   *   compact  a wide, low chip: attack and defence only, in large figures.
   * The board never zooms out below MIN_SCALE, where the compact figures are still
   * COMPACT_MIN_PX high. */
  const P_REF = 0.9, K_MAX = 1.06;
  const CW = 44;                      // counter width (SVG units)
  const FONT = { name: 12, stat: 15, move: 12, name_m: 14, stat_m: 18, big: 28 };
  const NAME_MIN_PX = 10, COMPACT_MIN_PX = 11;
  const NAME_ROOM = CW - 4;
  const CHIP_W = 76, CHIP_H = 24;     // the compact face: K_MAX * CHIP_H < 27.7
  const MIN_SCALE = COMPACT_MIN_PX / (FONT.big * K_MAX);

  const TERRAIN_STYLE = {
    clear:         { fill: "#e9efcf" },
    brush:         { fill: "#cfd9a0", sym: "brush" },
    tree:          { fill: "#a9cc8e", sym: "tree" },
    tree_top:      { fill: "#86b472", sym: "treetop" },
    slope:         { fill: "#e6d3a0", sym: "slope" },
    marsh:         { fill: "#bcd6c4", sym: "marsh" },
    rock:          { fill: "#cbc6bd", sym: "rock" },
    garden:        { fill: "#dcc995", sym: "garden" },
    vines:         { fill: "#dccbe0", sym: "vines" },
    beach:         { fill: "#f3e5b8", sym: "beach" },
    deep_shallows: { fill: "#86b9df", sym: "waves" },
    shallows:      { fill: "#b0d8f0", sym: "wave1" },
    water:         { fill: "#6aa4d6", sym: "waves" },
    building:      { fill: "#b98560", sym: "building" },
    bridge:        { fill: "#c9a87a" },
    stone_bridge:  { fill: "#a9a39a" },
    cart:          { fill: "#a0703c" },
  };
  const FEATURE_STYLE = {
    low_wall: { stroke: "#6b6258", width: 5, dash: null },
    fence:    { stroke: "#8b5a2b", width: 4, dash: "6 3" },
    wall:     { stroke: "#2f2b27", width: 7, dash: null },
    cart_front: { stroke: "#5a3a1a", width: 4, dash: null },
  };
  // the Croisades edition's terrain (rulesets/croisades/data/terrain.toml): desert, house, castle
  Object.assign(TERRAIN_STYLE, {
    oasis:          { fill: "#9fd3c0", sym: "wave1" },
    palm_leaves:    { fill: "#b7d68c", sym: "tree" },
    palm_trunk:     { fill: "#9cbf6e", sym: "treetop" },
    shrub:          { fill: "#d8d59a", sym: "brush" },
    stone_field:    { fill: "#ddd2b8", sym: "rock" },
    ditch:          { fill: "#c9b487", sym: "slope" },
    tent:           { fill: "#efe3c2", sym: "building" },
    tent_opening:   { fill: "#f6edd4" },
    guy_ropes:      { fill: "#ede6cf", sym: "garden" },
    house_interior: { fill: "#d9b98f" },
    house_wall:     { fill: "#6e5a48" },
    window:         { fill: "#a98b6a" },
    door:           { fill: "#b0895a" },
    stairs:         { fill: "#c7b29a" },
    parapet:        { fill: "#b8a58c" },
    outer_corner:   { fill: "#c2ad92" },
    trapdoor:       { fill: "#9c7a52" },
    ladder:         { fill: "#b3925f" },
    balcony:        { fill: "#cfae84" },
    castle_wall:    { fill: "#5d5a55" },
    rampart:        { fill: "#a8a39a" },
    tower_door:     { fill: "#8e7a62" },
    arrow_slit:     { fill: "#7d786f" },
    castle_rocks:   { fill: "#bdb7ab", sym: "rock" },
    glacis:         { fill: "#cfc9bb" },
    fountain:       { fill: "#a9cde6", sym: "wave1" },
    wine_press:     { fill: "#c9a7b8" },
    well:           { fill: "#9ec3df" },
  });
  const SIDE_COLOURS = ["#a3242b", "#1f4f99", "#2e7d32", "#6a3d9a", "#b8620c"];

  function svg(tag, attrs, parent) {
    const e = document.createElementNS(NS, tag);
    if (attrs) for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) e.setAttribute(k, v);
    if (parent) parent.appendChild(e);
    return e;
  }

  function centre(h) { return { x: 1.5 * S * h.q, y: SQ3 * S * (h.r + h.q / 2) }; }

  function corners(c, k) {
    const out = [];
    for (let i = 0; i < 6; i++) {
      const a = Math.PI / 3 * i;
      out.push([c.x + S * k * Math.cos(a), c.y + S * k * Math.sin(a)]);
    }
    return out.map((p) => p[0].toFixed(2) + "," + p[1].toFixed(2)).join(" ");
  }

  /* symbol drawings, centred on (0, 0), for a hex of size S */
  function defineSymbols(defs) {
    const g = (id) => svg("g", { id: "sym-" + id }, defs);
    let s;
    s = g("brush");
    for (const [x, y] of [[-12, -6], [4, -10], [10, 6], [-6, 9], [-1, 0]]) {
      svg("circle", { cx: x, cy: y, r: 3.2, fill: "#7b8f3a" }, s);
      svg("circle", { cx: x + 2.5, cy: y + 1, r: 2.4, fill: "#93a64b" }, s);
    }
    s = g("tree");
    svg("rect", { x: -1.5, y: 4, width: 3, height: 9, fill: "#6b4a2b" }, s);
    svg("circle", { cx: 0, cy: -3, r: 11, fill: "#3f7a35", stroke: "#2b5a25", "stroke-width": 1.5 }, s);
    svg("circle", { cx: -4, cy: -6, r: 4, fill: "#5a9a4a" }, s);
    s = g("treetop");
    svg("circle", { cx: 0, cy: 0, r: 14, fill: "#2f6a2b", stroke: "#1d4a1b", "stroke-width": 2 }, s);
    svg("circle", { cx: -5, cy: -4, r: 5, fill: "#4f8f45" }, s);
    s = g("slope");
    for (let i = -3; i <= 3; i++) svg("line", { x1: i * 5, y1: -12 + Math.abs(i), x2: i * 5, y2: 2, stroke: "#a07a3e", "stroke-width": 1.6 }, s);
    svg("path", { d: "M-18,-12 Q0,-18 18,-12", fill: "none", stroke: "#8a6530", "stroke-width": 2 }, s);
    s = g("marsh");
    for (const [x, y] of [[-10, -6], [6, -9], [9, 7], [-5, 8]]) {
      svg("path", { d: `M${x - 4},${y} l2,-6 M${x},${y} l0,-7 M${x + 4},${y} l-2,-6`, stroke: "#3d6b4f", "stroke-width": 1.4, fill: "none" }, s);
      svg("line", { x1: x - 6, y1: y + 2, x2: x + 6, y2: y + 2, stroke: "#4d86b8", "stroke-width": 1.4 }, s);
    }
    s = g("rock");
    svg("path", { d: "M-14,6 L-8,-6 L-1,-2 L3,-11 L12,0 L14,7 Z", fill: "#8d877d", stroke: "#5e5951", "stroke-width": 1.5 }, s);
    svg("path", { d: "M-5,12 L-1,5 L5,8 L8,13 Z", fill: "#9e988d", stroke: "#5e5951", "stroke-width": 1.2 }, s);
    s = g("garden");
    for (let i = -2; i <= 2; i++) svg("line", { x1: -16, y1: i * 6, x2: 16, y2: i * 6, stroke: "#9a7b3f", "stroke-width": 1.6, "stroke-dasharray": "3 2" }, s);
    s = g("vines");
    for (let i = -1; i <= 1; i++) {
      svg("line", { x1: i * 9, y1: -15, x2: i * 9, y2: 15, stroke: "#6b4a2b", "stroke-width": 1 }, s);
      for (let j = -1; j <= 1; j++) svg("circle", { cx: i * 9 + 2.5, cy: j * 9, r: 2.6, fill: "#6e3f86" }, s);
    }
    s = g("beach");
    for (const [x, y] of [[-10, -6], [6, -9], [9, 7], [-5, 8], [0, 0], [-12, 5], [12, -2]]) svg("circle", { cx: x, cy: y, r: 1.2, fill: "#b79a55" }, s);
    s = g("waves");
    for (const y of [-8, 0, 8]) svg("path", { d: `M-16,${y} q4,-4 8,0 t8,0 t8,0 t8,0`, fill: "none", stroke: "#ffffff", "stroke-width": 1.6, opacity: 0.8 }, s);
    s = g("wave1");
    for (const y of [-5, 5]) svg("path", { d: `M-14,${y} q3.5,-3 7,0 t7,0 t7,0 t7,0`, fill: "none", stroke: "#4d8fc4", "stroke-width": 1.4 }, s);
    defineAnimals(defs);
    s = g("building");
    svg("rect", { x: -15, y: -13, width: 30, height: 26, fill: "#8e5434", stroke: "#5a3220", "stroke-width": 2 }, s);
    svg("path", { d: "M-15,-13 L0,0 L15,-13 M-15,13 L0,0 L15,13", stroke: "#5a3220", "stroke-width": 1.5, fill: "none" }, s);
  }

  /* Pictograms of the animals and carts (side view, facing right, about 32 x 26 units): every
   * kind of the view's `horses[].kind` has its own (§4.4 horses, §4.5 draught animals and carts,
   * §4.6.1 camels, pack camels and litters), and a camel one more kneeling (§4.6.4). */
  const INK = "#1d1710";
  const HORSE = "M-11,-2 C-11,-6 -6,-5 0,-5 L5,-5 L9,-11 L10.5,-13 L12,-10.5 L15.5,-6.5 L14.5,-4 L10.5,-5.5 L7.5,-1 L7,3 L7.5,10 L5.2,10 L4,4.5 L-6,4.5 L-7,10 L-9.3,10 L-9.3,3.5 C-11,2.5 -12,0 -11,-2 Z";
  const HORSE_TAIL = "M-11,-2 Q-15.5,1 -14,7";
  const OX = "M-12,-4 L4,-5 L7,-6.5 L10,-3.5 L10.5,-8.5 L12,-8.5 L12.2,-3.6 L15.5,-1.5 L15.5,3 L12,3.4 L9,2.5 L8,5 L8,10 L5.8,10 L5,6 L-8,6 L-8.2,10 L-10.4,10 L-10.6,5 C-12.6,3 -13,-1 -12,-4 Z";
  const OX_TAIL = "M-12,-3 Q-14.5,2 -13,7";
  const CAMEL = "M-12,-1 C-11,-5 -9.5,-6.5 -7.5,-6.5 C-5,-14 2,-14 4,-6 L6,-4 C8,-4 8.8,-8 10,-12 L14,-12.5 L15.5,-10.5 L11.6,-9.2 C10.6,-5 9.5,0 6.5,1.5 L6.2,11 L4.3,11 L3.5,2.5 L-6,2.5 L-7,11 L-9,11 L-9,1.5 C-11,1.5 -12.2,0.5 -12,-1 Z";
  const CAMEL_KNEEL = "M-12,5 C-11,1 -9.5,-0.5 -7.5,-0.5 C-5,-8 2,-8 4,0 L6,2 C8,2 8.8,-2 10,-6 L14,-6.5 L15.5,-4.5 L11.6,-3.2 C10.6,1 9.5,6 6.5,7.5 L9.5,8.4 L9.5,10.5 L-10.5,10.5 C-12.5,9.5 -12.8,7 -12,5 Z";

  function defineAnimals(defs) {
    const g = (id) => svg("g", { id: "sym-" + id, class: "pictogram" }, defs);
    const body = (parent, d, extra) => svg("path", Object.assign({ d, fill: "#fbf6ea", stroke: INK, "stroke-width": 1.4, "stroke-linejoin": "round" }, extra || {}), parent);
    const line = (parent, d, w) => svg("path", { d, fill: "none", stroke: INK, "stroke-width": w || 1.6, "stroke-linecap": "round" }, parent);
    let s = g("horse");
    line(s, HORSE_TAIL, 2.2); body(s, HORSE);
    svg("path", { d: "M6,-6.5 L9.5,-11.5", stroke: INK, "stroke-width": 1.1, fill: "none" }, s);  // the mane
    s = g("draught_horse");
    line(s, HORSE_TAIL, 2.2); body(s, HORSE);
    svg("path", { d: "M5.2,-7.8 C3.5,-3 5,1 7.6,1.8", fill: "none", stroke: "#8b5a2b", "stroke-width": 3 }, s);  // the collar
    s = g("ox");
    line(s, OX_TAIL, 1.6); body(s, OX);
    svg("path", { d: "M11,-8.5 C9.5,-12 12,-13 14,-12", fill: "none", stroke: INK, "stroke-width": 1.6, "stroke-linecap": "round" }, s);  // the horn
    svg("circle", { cx: 13, cy: -1.5, r: 0.9, fill: INK }, s);
    for (const kneel of [false, true]) {
      const dy = kneel ? 6 : 0, base = kneel ? CAMEL_KNEEL : CAMEL, k = kneel ? "_kneeling" : "";
      s = g("camel" + k); body(s, base);
      svg("circle", { cx: 13.4, cy: -10.8 + dy, r: 0.8, fill: INK }, s);
      s = g("pack_camel" + k); body(s, base);
      for (const x of [-7, -0.5]) {
        svg("rect", { x, y: -12.5 + dy, width: 6, height: 8, rx: 1, fill: "#b9813e", stroke: INK, "stroke-width": 1.1 }, s);
        svg("line", { x1: x, y1: -8.5 + dy, x2: x + 6, y2: -8.5 + dy, stroke: INK, "stroke-width": 0.9 }, s);
      }
      s = g("litter_camel" + k); body(s, base);
      svg("rect", { x: -8, y: -19 + dy, width: 13, height: 8, fill: "#f0dfb2", stroke: INK, "stroke-width": 1.1 }, s);
      svg("path", { d: `M-10,${-18.5 + dy} Q-1.5,${-27 + dy} 7,${-18.5 + dy} Z`, fill: "#b3261e", stroke: INK, "stroke-width": 1.1 }, s);
      svg("line", { x1: -1.5, y1: -19 + dy, x2: -1.5, y2: -11 + dy, stroke: INK, "stroke-width": 0.9 }, s);
    }
    s = g("cart");
    svg("line", { x1: 9, y1: -1, x2: 17, y2: -4, stroke: INK, "stroke-width": 2, "stroke-linecap": "round" }, s);  // the shaft
    svg("rect", { x: -13, y: -8, width: 23, height: 9, rx: 1.5, fill: "#c08a4e", stroke: INK, "stroke-width": 1.4 }, s);
    for (const x of [-7, 1.5]) svg("line", { x1: x, y1: -8, x2: x, y2: 1, stroke: INK, "stroke-width": 0.9 }, s);
    svg("circle", { cx: -3, cy: 4.5, r: 6, fill: "#fbf6ea", stroke: INK, "stroke-width": 1.6 }, s);
    for (const a of [0, 60, 120]) {
      const r = Math.PI * a / 180;
      svg("line", { x1: -3 - 6 * Math.cos(r), y1: 4.5 - 6 * Math.sin(r), x2: -3 + 6 * Math.cos(r), y2: 4.5 + 6 * Math.sin(r), stroke: INK, "stroke-width": 1 }, s);
    }
    s = g("bow");  // a missile weapon on the counter
    svg("path", { d: "M-5,-9 Q6,0 -5,9", fill: "none", stroke: "#fff", "stroke-width": 2.2, "stroke-linecap": "round" }, s);
    svg("line", { x1: -5, y1: -9, x2: -5, y2: 9, stroke: "#fff", "stroke-width": 1 }, s);
    svg("line", { x1: -9, y1: 0, x2: 8, y2: 0, stroke: "#fff", "stroke-width": 1.4 }, s);
    svg("path", { d: "M8,0 L4,-2.6 L4,2.6 Z", fill: "#fff" }, s);
    s = g("flag");  // an objective hex
    svg("line", { x1: -6, y1: 10, x2: -6, y2: -11, stroke: INK, "stroke-width": 2, "stroke-linecap": "round" }, s);
    svg("path", { d: "M-5,-11 L10,-6.5 L-5,-1.5 Z", fill: "#fff", stroke: INK, "stroke-width": 1.3, "stroke-linejoin": "round" }, s);
  }

  /* The symbol of an animal of the view (`kind`, `kneeling`), and of a rider's mount. */
  function animalSymbol(kind, kneeling) {
    kind = kind || "horse";
    if (kind === "camel" || kind === "pack_camel" || kind === "litter_camel") return kind + (kneeling ? "_kneeling" : "");
    if (kind === "ox" || kind === "draught_horse") return kind;
    return "horse";
  }

  class Board {
    constructor(container, map, opts) {
      this.container = container;
      this.map = map;
      this.opts = opts || {};
      this.hexByLabel = new Map();
      this.labelEl = new Map();
      this.nameFits = new Map();
      for (const h of map.hexes) this.hexByLabel.set(h.label, h);
      this.sideColour = {};
      this.view = { s: 1, tx: 0, ty: 0 };
      this.userMoved = false;
      this.readOnly = false;
      this._build();
      this._bindPointer();
      this.fit();
      if (window.ResizeObserver) {
        this._ro = new ResizeObserver(() => this._onResize());
        this._ro.observe(container);
      }
      this._lastSize = [container.clientWidth, container.clientHeight];
    }

    setSides(sideIds) {
      sideIds.forEach((id, i) => { this.sideColour[id] = SIDE_COLOURS[i % SIDE_COLOURS.length]; });
    }
    colourOf(side) { return this.sideColour[side] || "#555"; }

    centreOf(label) { const h = this.hexByLabel.get(label); return h ? centre(h) : null; }

    hexDistance(a, b) {
      const ha = this.hexByLabel.get(a), hb = this.hexByLabel.get(b);
      if (!ha || !hb) return Infinity;
      const dq = ha.q - hb.q, dr = ha.r - hb.r;
      return (Math.abs(dq) + Math.abs(dr) + Math.abs(dq + dr)) / 2;
    }

    /* The hexes on the straight line from a to b (geometry only; a excluded). */
    straightLine(a, b) {
      const ha = this.hexByLabel.get(a), hb = this.hexByLabel.get(b);
      if (!ha || !hb) return [b];
      const n = this.hexDistance(a, b);
      const byQR = new Map(this.map.hexes.map((h) => [h.q + "," + h.r, h.label]));
      const out = [];
      for (let i = 1; i <= n; i++) {
        const t = i / n;
        const x = ha.q + (hb.q - ha.q) * t + 1e-6, z = ha.r + (hb.r - ha.r) * t + 1e-6, y = -x - z;
        let rx = Math.round(x), ry = Math.round(y), rz = Math.round(z);
        const dx = Math.abs(rx - x), dy = Math.abs(ry - y), dz = Math.abs(rz - z);
        if (dx > dy && dx > dz) rx = -ry - rz; else if (dy <= dz) rz = -rx - ry;
        const lab = byQR.get(rx + "," + rz);
        if (lab && out[out.length - 1] !== lab) out.push(lab);
      }
      return out;
    }

    _build() {
      const root = svg("svg", { class: "board-svg mc", "data-testid": "board-svg", role: "img",
                                "aria-label": this.map.name });
      this.svg = root;
      const defs = svg("defs", null, root);
      defineSymbols(defs);
      const m = svg("marker", { id: "arrow", viewBox: "0 0 10 10", refX: 6, refY: 5, markerWidth: 5, markerHeight: 5, orient: "auto-start-reverse" }, defs);
      svg("path", { d: "M0,0 L10,5 L0,10 z", fill: "#1b1b1b" }, m);

      this.vp = svg("g", { class: "viewport" }, root);
      this.layers = {};
      for (const name of ["terrain", "symbols", "elevation", "hexsides", "objectives", "labels", "highlights", "line", "path", "horses", "counters", "flags", "rolls", "marks"]) {
        this.layers[name] = svg("g", { class: "layer layer-" + name }, this.vp);
      }
      let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
      for (const h of this.map.hexes) {
        const c = centre(h);
        minX = Math.min(minX, c.x - S); maxX = Math.max(maxX, c.x + S);
        minY = Math.min(minY, c.y - S * SQ3 / 2); maxY = Math.max(maxY, c.y + S * SQ3 / 2);
        const st = TERRAIN_STYLE[h.terrain] || { fill: "#dddddd" };
        const poly = svg("polygon", {
          points: corners(c, 1), fill: st.fill, class: "hex terrain-" + h.terrain,
          "data-hex": h.label, "data-testid": "hex-" + h.label,
        }, this.layers.terrain);
        const title = svg("title", null, poly);
        title.textContent = this._hexTitle(h);
        if (st.sym) svg("use", { href: "#sym-" + st.sym, x: c.x, y: c.y + 2 }, this.layers.symbols);
        else if (!TERRAIN_STYLE[h.terrain]) {
          const q = svg("text", { x: c.x, y: c.y + 5, class: "unknown-terrain" }, this.layers.symbols);
          q.textContent = "?";
        }
        if (h.elevation) {
          const lvl = h.elevation;
          svg("polygon", { points: corners(c, 1), fill: lvl > 0 ? "#4a2f10" : "#10304a", opacity: Math.min(0.12 * Math.abs(lvl), 0.5) }, this.layers.elevation);
          svg("polygon", { points: corners(c, 0.94), fill: "none", stroke: lvl > 0 ? "#6b4a1e" : "#1e4a6b", "stroke-width": 1.2, "stroke-dasharray": "2 2", opacity: 0.7 }, this.layers.elevation);
          const tx = svg("text", { x: c.x + S * 0.52, y: c.y + S * 0.62, class: "elev-label" }, this.layers.elevation);
          tx.textContent = (lvl > 0 ? "▲" : "▼") + Math.abs(lvl);
        }
        const lab = svg("text", { x: c.x, y: c.y - S * 0.6, class: "hex-label", "data-label": h.label }, this.layers.labels);
        lab.textContent = h.label;
        this.labelEl.set(h.label, lab);
      }
      for (const side of this.map.hexsides) {
        const a = this.centreOf(side.a), b = this.centreOf(side.b);
        if (!a || !b) continue;
        const mx = (a.x + b.x) / 2, my = (a.y + b.y) / 2;
        const dx = b.x - a.x, dy = b.y - a.y, len = Math.hypot(dx, dy);
        const px = -dy / len * S / 2, py = dx / len * S / 2;
        const st = FEATURE_STYLE[side.feature] || { stroke: "#d00", width: 5 };
        const ln = svg("line", { x1: mx - px, y1: my - py, x2: mx + px, y2: my + py, stroke: st.stroke,
                                 "stroke-width": st.width, "stroke-linecap": "round", "stroke-dasharray": st.dash,
                                 class: "hexside feature-" + side.feature, "data-testid": `hexside-${side.a}-${side.b}` }, this.layers.hexsides);
        if (side.feature === "low_wall") ln.setAttribute("stroke-dasharray", "7 1.5");
      }
      // a hidden text to measure the counters' names (they never overflow their counter)
      this._meas = svg("text", { class: "counter-name measure", x: 0, y: -1000, "aria-hidden": "true" }, root);
      const pad = 6;
      this.bounds = { x: minX - pad, y: minY - pad, w: maxX - minX + 2 * pad, h: maxY - minY + 2 * pad };
      this.container.appendChild(root);
    }

    /* the hexes' tooltips, in the current language */
    retitle() {
      this.layers.terrain.querySelectorAll("polygon.hex").forEach((poly) => {
        const h = this.hexByLabel.get(poly.dataset.hex);
        poly.querySelector("title").textContent = this._hexTitle(h);
      });
    }

    _hexTitle(h) {
      return `${h.label} — ${this._terrainName(h.terrain)}` + (h.elevation ? ` (${h.elevation > 0 ? "+" : ""}${h.elevation})` : "");
    }

    _terrainName(id) { return featureName(this.map.terrain, id); }

    /* --- transform --------------------------------------------------------------------------- */
    _apply() {
      const { s, tx, ty } = this.view;
      this.vp.setAttribute("transform", `translate(${tx.toFixed(2)},${ty.toFixed(2)}) scale(${s.toFixed(4)})`);
      this.svg.classList.toggle("zoomed-out", s < 0.75);
      // counters, animals and dice keep a readable size on screen (see P_REF, K_MAX)
      const k = Math.min(K_MAX, Math.max(1, P_REF / s));
      const p = s * k;
      const lod = p * FONT.name >= NAME_MIN_PX - 1e-6 ? "full" : p * FONT.name_m >= NAME_MIN_PX - 1e-6 ? "medium" : "compact";
      if (k !== this._k) { this.svg.style.setProperty("--ck", k.toFixed(4)); this._k = k; }
      for (const x of ["full", "medium", "compact"]) this.svg.classList.toggle("lod-" + x, x === lod);
      this.svg.dataset.lod = lod;
    }

    /* the scale that shows the whole map, never below the readable MIN_SCALE */
    fitScale() {
      const W = this.container.clientWidth || 800, H = this._usableHeight();
      const b = this.bounds;
      return Math.max(MIN_SCALE, Math.min(W / b.w, H / b.h));
    }

    /* the height left to the map under and above the owner's overlays (opts.insetTop, insetBottom) */
    _usableHeight() {
      const H = this.container.clientHeight || 600;
      const t = this.opts.insetTop || 0, b = this.opts.insetBottom || 0;
      return H - t - b > H * 0.6 ? H - t - b : H;
    }

    minScale() { return Math.min(this.fitScale(), 1) * 0.999; }

    fit() {
      const W = this.container.clientWidth || 800, H = this.container.clientHeight || 600;
      const b = this.bounds;
      const s = this.fitScale();
      const top = this._usableHeight() < H ? this.opts.insetTop || 0 : 0, UH = this._usableHeight();
      this.view = { s, tx: (W - b.w * s) / 2 - b.x * s, ty: top + (UH - b.h * s) / 2 - b.y * s };
      this.userMoved = false;
      this._apply();
    }

    _onResize() {
      const W = this.container.clientWidth, H = this.container.clientHeight;
      const [w0, h0] = this._lastSize;
      this._lastSize = [W, H];
      if (!W || !H) return;
      if (!this.userMoved) { this.fit(); return; }
      // keep the same point of the map in the middle
      this.view.tx += (W - w0) / 2;
      this.view.ty += (H - h0) / 2;
      this._apply();
    }

    zoomAt(factor, px, py) {
      const v = this.view;
      const s = Math.max(this.minScale(), Math.min(5, v.s * factor));
      const k = s / v.s;
      v.tx = px - (px - v.tx) * k;
      v.ty = py - (py - v.ty) * k;
      v.s = s;
      this.userMoved = true;
      this._apply();
    }

    zoomBy(factor) {
      this.zoomAt(factor, this.container.clientWidth / 2, this.container.clientHeight / 2);
    }

    /* Make sure a hex is on screen (pans, never zooms). */
    reveal(label) {
      const c = this.centreOf(label);
      if (!c) return;
      const W = this.container.clientWidth, H = this.container.clientHeight, v = this.view;
      const x = c.x * v.s + v.tx, y = c.y * v.s + v.ty, m = S * v.s;
      if (x > m && x < W - m && y > m && y < H - m) return;
      v.tx += W / 2 - x; v.ty += H / 2 - y;
      this._apply();
    }

    _local(ev) {
      const r = this.svg.getBoundingClientRect();
      return { x: ev.clientX - r.left, y: ev.clientY - r.top };
    }

    _bindPointer() {
      const el = this.svg;
      const pointers = new Map();
      let drag = null, pinch = null;
      const targetInfo = (t) => {
        while (t && t !== el) {
          const d = t.dataset;
          if (d && (d.char || d.animal || d.cart)) {
            return { char: d.char || null, hex: d.at || d.front || null, animal: d.animal || null, cart: d.cart || null, node: t };
          }
          if (d && d.hex) return { hex: d.hex };
          t = t.parentNode;
        }
        return null;
      };
      const cardOf = (ti) => (ti && (ti.char || ti.animal || ti.cart) ? ti : null);
      // the counter's card: after a short hover with a mouse, after a long press on a touch screen
      let hoverTimer = null, hoverKey = null, pressTimer = null;
      const showCard = (ti) => {
        if (!this.opts.onCard) return;
        this.opts.onCard(ti ? { char: ti.char, animal: ti.animal, cart: ti.cart, rect: ti.node.getBoundingClientRect() } : null);
      };
      const hoverCard = (ti) => {
        const key = ti ? [ti.char, ti.animal, ti.cart].join("/") : null;
        if (key === hoverKey) return;
        hoverKey = key;
        clearTimeout(hoverTimer);
        hoverTimer = setTimeout(() => showCard(ti), ti ? 350 : 150);
      };
      el.addEventListener("pointerdown", (ev) => {
        if (ev.button !== undefined && ev.button > 0) return;
        const p = this._local(ev);
        pointers.set(ev.pointerId, p);
        clearTimeout(pressTimer);
        if (pointers.size === 1) {
          const ti = targetInfo(ev.target);
          drag = { x0: p.x, y0: p.y, tx: this.view.tx, ty: this.view.ty, moved: false, target: ti, longPress: false };
          if (ev.pointerType !== "mouse") {
            showCard(null);
            const d0 = drag;
            if (cardOf(ti)) pressTimer = setTimeout(() => { if (drag === d0 && !d0.moved) { d0.longPress = true; showCard(ti); } }, 500);
          }
        } else if (pointers.size === 2) {
          const [a, b] = [...pointers.values()];
          pinch = { d: Math.hypot(a.x - b.x, a.y - b.y) || 1, mx: (a.x + b.x) / 2, my: (a.y + b.y) / 2,
                    s: this.view.s, tx: this.view.tx, ty: this.view.ty };
          if (drag) drag.moved = true;
        }
        try { el.setPointerCapture(ev.pointerId); } catch (e) { /* ignore */ }
      });
      el.addEventListener("pointermove", (ev) => {
        if (!pointers.has(ev.pointerId)) {
          if (ev.pointerType === "mouse") {
            const ti = targetInfo(ev.target);
            if (this.opts.onHover) {
              const hex = ti ? ti.hex : null;
              if (hex !== this._hoverHex) { this._hoverHex = hex; this.opts.onHover(hex, ti && ti.char); }
            }
            hoverCard(cardOf(ti));
          }
          return;
        }
        const p = this._local(ev);
        pointers.set(ev.pointerId, p);
        if (pointers.size === 1 && drag) {
          const dx = p.x - drag.x0, dy = p.y - drag.y0;
          if (!drag.moved && Math.hypot(dx, dy) > 6) { drag.moved = true; el.classList.add("panning"); clearTimeout(pressTimer); showCard(null); }
          if (drag.moved) {
            this.view.tx = drag.tx + dx; this.view.ty = drag.ty + dy;
            this.userMoved = true;
            this._apply();
          }
        } else if (pointers.size === 2 && pinch) {
          const [a, b] = [...pointers.values()];
          const d = Math.hypot(a.x - b.x, a.y - b.y) || 1;
          const mx = (a.x + b.x) / 2, my = (a.y + b.y) / 2;
          const s = Math.max(this.minScale(), Math.min(5, pinch.s * d / pinch.d));
          const k = s / pinch.s;
          this.view = { s, tx: mx - (pinch.mx - pinch.tx) * k, ty: my - (pinch.my - pinch.ty) * k };
          this.userMoved = true;
          this._apply();
        }
      });
      const up = (ev) => {
        if (!pointers.has(ev.pointerId)) return;
        pointers.delete(ev.pointerId);
        clearTimeout(pressTimer);
        if (pointers.size < 2) pinch = null;
        if (pointers.size === 0) {
          el.classList.remove("panning");
          if (drag && !drag.moved && !drag.longPress && ev.type === "pointerup" && drag.target) {
            const ti = drag.target;
            if (ti.char && this.opts.onCounter) this.opts.onCounter(ti.char, ti.hex);
            else if (ti.hex && this.opts.onHex) this.opts.onHex(ti.hex);
          }
          drag = null;
        } else if (pointers.size === 1) {
          const [p] = [...pointers.values()];
          drag = { x0: p.x, y0: p.y, tx: this.view.tx, ty: this.view.ty, moved: true, target: null };
        }
      };
      el.addEventListener("pointerup", up);
      el.addEventListener("pointercancel", up);
      el.addEventListener("contextmenu", (ev) => { if (ev.pointerType !== "mouse" || (drag && drag.longPress)) ev.preventDefault(); });
      el.addEventListener("pointerleave", (ev) => {
        if (ev.pointerType === "mouse" && !pointers.size) {
          hoverCard(null);
          if (this.opts.onHover && this._hoverHex) { this._hoverHex = null; this.opts.onHover(null, null); }
        }
      });
      el.addEventListener("wheel", (ev) => {
        ev.preventDefault();
        showCard(null); hoverKey = null;
        const p = this._local(ev);
        const dy = ev.deltaMode === 1 ? ev.deltaY * 16 : ev.deltaY;
        this.zoomAt(Math.exp(-dy * 0.0015), p.x, p.y);
      }, { passive: false });
    }

    /* --- counters ------------------------------------------------------------------------------ */
    /* chars: [{id, name, side, hex, status, attack, defence, movement, armour, mounted, mount,
               kneeling, type, weapon}]
       marks: {selected, actors:Set, targets:Set, groups:Set} */
    setCharacters(chars, marks, carcasses) {
      marks = marks || {};
      const layer = this.layers.counters;
      layer.innerHTML = "";
      this._occupied = new Set(this._animalHexes || []);
      // bodies that are not counters of the roster (dead horses, §4.2.2): a small dark badge
      for (const b of carcasses || []) {
        const ctr = this.centreOf(b.hex);
        if (!ctr) continue;
        const g = svg("g", { class: "carcass", "data-testid": "carcass-" + b.hex,
                             transform: `translate(${(ctr.x - S * 0.55).toFixed(2)},${(ctr.y + S * 0.45).toFixed(2)})` }, layer);
        svg("title", null, g).textContent = window.I18N ? I18N.t("body.carcasses", { horse: b.horse || 0, man: b.man || 0 })
          : `dead horses: ${b.horse || 0}`;
        svg("circle", { r: 7.5, fill: "#5c3a1a", stroke: "#fff", "stroke-width": 1.2 }, g);
        const tx = svg("text", { x: 0, y: 3.5, "text-anchor": "middle", "font-size": 9, fill: "#fff" }, g);
        tx.textContent = "♞" + ((b.horse || 0) > 1 ? b.horse : "");
      }
      const byHex = new Map();
      const ordered = [...chars].sort((a, b) => (a.status === "dead" ? 0 : 1) - (b.status === "dead" ? 0 : 1));
      for (const c of ordered) {
        if (!c.hex) continue;
        this._occupied.add(c.hex);
        if (c.rear && c.status !== "dead") {
          this._occupied.add(c.rear);
          const body = this._horseBody(layer, c.hex, c.rear, this.colourOf(c.side), "rider-body", c.id);
          // the mount, on the rear hex: a horse or a camel, standing or kneeling (§4.6.1, §4.6.4)
          if (body) this._pictogram(body, c.rear, c.hex, animalSymbol(c.mount, c.kneeling), "rider-mount");
        }
        const stackIdx = byHex.get(c.hex) || 0;
        byHex.set(c.hex, stackIdx + 1);
        const ctr = this.centreOf(c.hex);
        if (!ctr) continue;
        const off = stackIdx * 6;
        this._counter(layer, c, ctr.x + off, ctr.y - off, marks);
      }
      this._hideCoveredLabels();
    }

    /* hex labels never show through (or beside) what stands on the hex */
    _hideCoveredLabels() {
      for (const [label, t] of this.labelEl) t.classList.toggle("covered", this._occupied.has(label));
    }

    /* A horse under a rider or alone (§1.2, §4.4): a band from the rear hex to the front hex,
       with a head pointing where it faces. */
    _horseBody(layer, front, rear, colour, cls, id) {
      const a = this.centreOf(rear), b = this.centreOf(front);
      if (!a || !b) return null;
      const g = svg("g", { class: cls, "data-testid": cls + "-" + id, "data-front": front, "data-rear": rear }, layer);
      svg("line", { x1: a.x, y1: a.y, x2: b.x, y2: b.y, stroke: colour, "stroke-width": S * 0.95, "stroke-linecap": "round", opacity: 0.45 }, g);
      const dx = b.x - a.x, dy = b.y - a.y, len = Math.hypot(dx, dy) || 1, ux = dx / len, uy = dy / len;
      const tipX = b.x + ux * S * 0.95, tipY = b.y + uy * S * 0.95, bx = b.x + ux * S * 0.55, by = b.y + uy * S * 0.55;
      svg("path", { d: `M${tipX.toFixed(1)},${tipY.toFixed(1)} L${(bx - uy * 9).toFixed(1)},${(by + ux * 9).toFixed(1)} L${(bx + uy * 9).toFixed(1)},${(by - ux * 9).toFixed(1)} Z`,
                    fill: colour, stroke: "#fff", "stroke-width": 1 }, g);
      return g;
    }

    /* A pictogram (symbol `sym`) on hex `at`, turned to face `towards` (mirrored when that is to
       the left), kept readable when zoomed out like the counters. */
    _pictogram(parent, at, towards, sym, cls) {
      const c = this.centreOf(at), f = this.centreOf(towards) || c;
      if (!c) return null;
      const g = svg("g", { class: "pictogram-at " + (cls || ""), transform: `translate(${c.x.toFixed(2)},${c.y.toFixed(2)})`,
                           "data-symbol": sym }, parent);
      const k = svg("g", { class: "ks" }, g);
      svg("circle", { r: 17, class: "pictogram-disc" }, k);
      svg("use", { href: "#sym-" + sym, transform: f.x < c.x - 0.5 ? "scale(-1,1)" : null }, k);
      return g;
    }

    /* carts: [{id, hexes: [front, rear], facing, animal, moving}] — carts (§4.5), in the horses'
       layer under them: a wooden body over both hexes, its front edge marked, dashed when moving */
    setCarts(carts) {  // call before setHorses, which draws them
      this._carts = carts || [];
    }

    _drawCarts() {
      const layer = this.layers.horses;
      for (const x of this._carts || []) {
        const a = this.centreOf(x.hexes[1]), b = this.centreOf(x.hexes[0]);
        if (!a || !b) continue;
        this._animalHexes.push(x.hexes[0], x.hexes[1]);
        const g = svg("g", { class: "cart" + (x.moving ? " cart-moving" : ""), "data-testid": "cart-" + x.id,
                             "data-front": x.hexes[0], "data-rear": x.hexes[1], "data-cart": x.id }, layer);
        svg("line", { x1: a.x, y1: a.y, x2: b.x, y2: b.y, stroke: "#a0703c", "stroke-width": S * 1.3,
                      "stroke-linecap": "round", opacity: 0.9 }, g);
        if (x.moving) {
          svg("line", { x1: a.x, y1: a.y, x2: b.x, y2: b.y, stroke: "#5a3a1a", "stroke-width": 3,
                        "stroke-dasharray": "6 4" }, g);
        }
        this._pictogram(g, x.hexes[1], x.hexes[0], "cart", "cart-symbol");
        const t = svg("text", { x: b.x, y: b.y + 6, class: "counter-glyph cart-front", "text-anchor": "middle" }, g);
        t.textContent = x.moving ? "⇑" : "▣";
      }
    }

    /* horses: [{id, hexes: [front, rear], facing, side, alive, kind, kneeling, passenger}] —
       riderless horses (§4.4.4), draught animals (§4.5) and camels (§4.6.1) */
    setHorses(horses) {
      const layer = this.layers.horses;
      layer.innerHTML = "";
      this._animalHexes = [];
      this._drawCarts();
      for (const h of horses || []) {
        const colour = h.alive && h.side ? this.colourOf(h.side) : "#7a7a7a";
        const g = this._horseBody(layer, h.hexes[0], h.hexes[1], colour, h.alive ? "horse" : "dead-horse", h.id);
        if (!g) continue;
        this._animalHexes.push(h.hexes[0], h.hexes[1]);
        g.setAttribute("data-animal", h.id);
        g.setAttribute("data-kind", h.kind || "horse");
        const sym = animalSymbol(h.kind, h.kneeling);
        const pic = this._pictogram(g, h.hexes[1], h.hexes[0], sym, "animal-symbol");
        if (!h.alive && pic) {
          pic.classList.add("dead");
          const x = pic.querySelector(".ks");
          svg("path", { d: "M-11,-11 L11,11 M11,-11 L-11,11", class: "dead-cross" }, x);
        }
        if (h.passenger && h.alive) {
          // the litter's passenger (§4.6.1): clicking the litter selects him (or aims at him)
          g.setAttribute("data-char", h.passenger);
          g.setAttribute("data-at", h.hexes[0]);
          g.setAttribute("data-passenger", h.passenger);
          const p = this.centreOf(h.hexes[0]);
          const pg = svg("g", { transform: `translate(${p.x.toFixed(2)},${p.y.toFixed(2)})`, class: "passenger" }, g);
          const k = svg("g", { class: "ks" }, pg);
          svg("circle", { r: 8, class: "passenger-disc", fill: colour }, k);
          svg("circle", { cx: 0, cy: -2.5, r: 2.6, fill: "#fff" }, k);
          svg("path", { d: "M-4.5,5 Q0,-1 4.5,5 Z", fill: "#fff" }, k);
        }
      }
    }

    /* a name that fits its counter: the whole name, or its last word, squeezed a little if need
       be, else cut with an ellipsis (measured in the counter's own font) */
    _fitName(name, font) {
      name = String(name || "");
      const key = font + "|" + name;
      if (this.nameFits.has(key)) return this.nameFits.get(key);
      const f = font / FONT.name;  // measured in the name's font at FONT.name, scaled
      const len = (x) => { this._meas.textContent = x; return this._meas.getComputedTextLength() * f; };
      const SQ = 0.8;
      let out = null;
      const words = name.split(/\s+/).filter(Boolean);
      const tries = [name];
      if (words.length > 1) tries.push(words[words.length - 1]);
      for (const cand of tries) {
        const L = len(cand);
        if (L <= NAME_ROOM) { out = { text: cand, squeeze: null }; break; }
        if (L * SQ <= NAME_ROOM) { out = { text: cand, squeeze: NAME_ROOM }; break; }
      }
      if (!out) {
        let cand = tries[tries.length - 1];
        while (cand.length > 1 && len(cand + "…") * SQ > NAME_ROOM) cand = cand.slice(0, -1);
        const L = len(cand + "…");
        out = { text: cand + "…", squeeze: L > NAME_ROOM ? NAME_ROOM : null };
      }
      if (len(out.text) > 0) this.nameFits.set(key, out);  // not cached while the page has no layout
      return out;
    }

    _counter(layer, c, x, y, marks) {
      const W = CW, half = W / 2;
      const col = this.colourOf(c.side);
      const dead = c.status === "dead", stunned = c.status === "stunned", wounded = c.status === "wounded";
      const fill = dead || stunned ? "#8a8a8a" : col;
      const cls = ["counter", "side-" + c.side, "status-" + c.status];
      if (marks.selected === c.id) cls.push("selected");
      if (marks.actors && marks.actors.has(c.id)) cls.push("actor");
      if (marks.targets && marks.targets.has(c.id)) cls.push("target");
      if (marks.groups && marks.groups.has(c.id)) cls.push("in-group");
      const g = svg("g", { class: cls.join(" "), transform: `translate(${x.toFixed(2)},${y.toFixed(2)})`,
                           "data-char": c.id, "data-at": c.hex, "data-testid": "counter-" + c.id,
                           "data-status": c.status, "data-hex-at": c.hex, "aria-label": c.name }, layer);
      const face = svg("g", { class: "ks" }, g);
      if (marks.targets && marks.targets.has(c.id)) {
        svg("circle", { r: half + 7, class: "target-ring" }, face);
      }
      // the square counter (full and medium faces), tilted when stunned
      const body = svg("g", { class: "lod-square", transform: stunned ? "rotate(35)" : null }, face);
      svg("rect", { x: -half - 3, y: -half - 3, width: W + 6, height: W + 6, rx: 5, class: "counter-halo" }, body);
      svg("rect", { x: -half, y: -half, width: W, height: W, rx: 4, fill, class: "counter-body", stroke: "#fff", "stroke-width": 1.6 }, body);
      // the full face: name, type, movement, attack and defence
      const full = svg("g", { class: "lod-full-only" }, body);
      svg("rect", { x: -half, y: -half, width: W, height: 15, rx: 4, class: "name-strip" }, full);
      this._name(full, c.name, FONT.name, -half + 11.3, "counter-name");
      // the mount (horse or camel, §4.6.1) or a missile weapon, left of the movement box
      const glyph = c.mounted ? animalSymbol(c.mount, c.kneeling) : (c.weapon ? "bow" : null);
      if (glyph) {
        const u = svg("use", { href: "#sym-" + glyph, class: "counter-symbol", "data-symbol": glyph,
                               transform: `translate(${-half + 11},1) scale(${c.mounted ? 0.5 : 0.62})` }, full);
        if (c.mounted) u.classList.add("mount-symbol");
      }
      svg("rect", { x: 3, y: -5.5, width: 17, height: 13, rx: 2.5, class: "move-box" }, full);
      const mv = svg("text", { x: 11.5, y: 5.4, class: "counter-move" }, full); mv.textContent = c.movement;
      const yb = half - 3.5;
      const at = svg("text", { x: -half + 10.5, y: yb, class: "counter-stat" }, full); at.textContent = c.attack;
      if (c.armour) svg("circle", { cx: half - 10.5, cy: yb - 5.3, r: 8.3, class: "armour-ring" }, full);
      const df = svg("text", { x: half - 10.5, y: yb, class: "counter-stat" }, full); df.textContent = c.defence;
      // the medium face: a larger name, attack and defence
      const med = svg("g", { class: "lod-medium-only" }, body);
      svg("rect", { x: -half, y: -half, width: W, height: 19, rx: 4, class: "name-strip" }, med);
      this._name(med, c.name, FONT.name_m, -half + 14.2, "counter-name medium");
      const ym = half - 3.5;
      const at1 = svg("text", { x: -10.5, y: ym, class: "counter-stat medium" }, med); at1.textContent = c.attack;
      if (c.armour) svg("circle", { cx: 11, cy: ym - 6.4, r: 9.6, class: "armour-ring" }, med);
      const df1 = svg("text", { x: 11, y: ym, class: "counter-stat medium" }, med); df1.textContent = c.defence;
      if (wounded) {
        svg("path", { d: `M${half - 12},${-half} L${half},${-half} L${half},${-half + 12} Z`, fill: "#e01b24", stroke: "#fff", "stroke-width": 1 }, body);
        svg("rect", { x: -half, y: -half + 12.5, width: 3.5, height: W - 12.5, fill: "#e01b24" }, body);
      }
      if (dead) {
        svg("path", { d: `M${-half + 3},${-half + 3} L${half - 3},${half - 3} M${half - 3},${-half + 3} L${-half + 3},${half - 3}`,
                      stroke: "#5c0a0a", "stroke-width": 3.5, "stroke-linecap": "round" }, body);
      }
      // the compact face (zoomed out): a wide, low chip with attack and defence in large figures;
      // CHIP_H stays under the 27.7 units between the centres of two neighbouring columns' hexes,
      // so that chips of neighbouring hexes never overlap
      const chip = svg("g", { class: "lod-compact-only" }, face);
      const cw = CHIP_W / 2, chh = CHIP_H / 2;
      svg("rect", { x: -cw - 3, y: -chh - 3, width: CHIP_W + 6, height: CHIP_H + 6, rx: 6, class: "counter-halo" }, chip);
      svg("rect", { x: -cw, y: -chh, width: CHIP_W, height: CHIP_H, rx: 5, fill, class: "counter-body", stroke: "#fff", "stroke-width": 1.6 }, chip);
      const cy = 10;
      const at2 = svg("text", { x: -cw / 2 - 1, y: cy, class: "counter-big" }, chip); at2.textContent = c.attack;
      const df2 = svg("text", { x: cw / 2 + 1, y: cy, class: "counter-big" + (c.armour ? " armoured" : "") }, chip); df2.textContent = c.defence;
      if (c.armour) svg("rect", { x: 6, y: -chh + 2, width: cw - 8, height: CHIP_H - 4, rx: 6, class: "armour-ring big" }, chip);
      if (wounded) svg("rect", { x: -cw, y: -chh, width: 5, height: CHIP_H, rx: 2, fill: "#e01b24" }, chip);
      if (dead) svg("path", { d: `M${-cw + 4},${-chh + 3} L${cw - 4},${chh - 3} M${cw - 4},${-chh + 3} L${-cw + 4},${chh - 3}`,
                              stroke: "#5c0a0a", "stroke-width": 3.5, "stroke-linecap": "round" }, chip);
      if (stunned) {
        const st = svg("text", { x: half - 2, y: -half + 2, class: "stun-mark" }, face);
        st.textContent = "✶";
      }
      return g;
    }

    _name(parent, name, font, y, cls) {
      const fit = this._fitName(name, font);
      const nm = svg("text", { x: 0, y, class: cls, textLength: fit.squeeze, lengthAdjust: fit.squeeze ? "spacingAndGlyphs" : null }, parent);
      nm.textContent = fit.text;
      return nm;
    }

    /* --- objectives (the scenario's victory hexes) ---------------------------------------------- */
    /* items: [{hex, holder: side id or null}] — a gold ring under the counters, a flag over them,
       in the colour of the side that holds the hex */
    setObjectives(items) {
      const ring = this.layers.objectives, flags = this.layers.flags;
      ring.innerHTML = ""; flags.innerHTML = "";
      for (const it of items || []) {
        const c = this.centreOf(it.hex);
        if (!c) continue;
        svg("polygon", { points: corners(c, 0.9), class: "objective-ring" + (it.holder ? " held" : "") }, ring);
        const g = svg("g", { class: "objective-flag" + (it.holder ? " held" : ""), "data-testid": "objective-" + it.hex,
                             "data-hex": it.hex, "data-held": it.holder || "",
                             transform: `translate(${(c.x + S * 0.78).toFixed(2)},${(c.y - S * 0.1).toFixed(2)})` }, flags);
        const k = svg("g", { class: "ks" }, g);
        svg("circle", { r: 11, class: "flag-disc" }, k);
        const f = svg("g", { transform: "scale(0.85)" }, k);  // the flag symbol, in the holder's colour
        svg("line", { x1: -6, y1: 10, x2: -6, y2: -11, stroke: INK, "stroke-width": 2, "stroke-linecap": "round" }, f);
        svg("path", { d: "M-5,-11 L10,-6.5 L-5,-1.5 Z", fill: it.holder ? this.colourOf(it.holder) : "#fff", class: "flag-cloth-on-board",
                      stroke: INK, "stroke-width": 1.3, "stroke-linejoin": "round" }, f);
      }
    }

    /* --- dice: the die just rolled, on its target ------------------------------------------------ */
    /* rolls: [{hex, die, modified, result, title, n}] — shown for `ms` then faded out */
    showRolls(rolls, ms) {
      const layer = this.layers.rolls;
      layer.innerHTML = "";
      clearTimeout(this._rollTimer);
      const perHex = new Map();
      for (const r of rolls || []) {
        const c = this.centreOf(r.hex);
        if (!c) continue;
        const i = perHex.get(r.hex) || 0;
        perHex.set(r.hex, i + 1);
        const g = svg("g", { class: "die-roll", "data-testid": "die-roll", "data-hex": r.hex, "data-die": r.die,
                             "data-result": r.result === undefined || r.result === null ? "" : String(r.result), "data-n": r.n,
                             transform: `translate(${(c.x + S * 0.34 + i * 36).toFixed(2)},${(c.y - S * 0.34).toFixed(2)})` }, layer);
        if (r.title) svg("title", null, g).textContent = r.title;
        const k = svg("g", { class: "ks" }, g);
        const spin = svg("g", { class: "die-spin" }, k);
        svg("rect", { x: -16, y: -16, width: 32, height: 32, rx: 6, class: "die-face" }, spin);
        const t = svg("text", { x: 0, y: 8, class: "die-number" }, spin);
        t.textContent = r.die;
        const res = r.result === undefined || r.result === null || r.result === "" ? null : String(r.result);
        const mod = r.modified !== undefined && r.modified !== null && r.modified !== r.die ? "=" + r.modified : "";
        const label = (mod ? mod + " " : "") + (res ? "→ " + res : "");
        if (label) {
          const w = 10 + label.length * 7.4;
          svg("rect", { x: -w / 2, y: 18, width: w, height: 17, rx: 8.5, class: "die-result" }, k);
          const rt = svg("text", { x: 0, y: 31, class: "die-result-text" }, k);
          rt.textContent = label;
        }
      }
      if (ms) this._rollTimer = setTimeout(() => { layer.querySelectorAll(".die-roll").forEach((x) => x.classList.add("fading")); }, ms);
    }

    /* --- overlays --------------------------------------------------------------------------------- */
    /* items: [{hex, cls, text, testid, title}] */
    setHighlights(items) {
      const layer = this.layers.highlights;
      layer.innerHTML = "";
      for (const it of items || []) {
        const c = this.centreOf(it.hex);
        if (!c) continue;
        const g = svg("g", { class: "hl " + (it.cls || ""), "data-testid": it.testid || null, "data-hl": it.hex }, layer);
        svg("polygon", { points: corners(c, 0.9), class: "hl-shape" }, g);
        if (it.text !== undefined && it.text !== null && it.text !== "") {
          svg("circle", { cx: c.x, cy: c.y + 2, r: 9.5, class: "hl-badge" }, g);
          const tx = svg("text", { x: c.x, y: c.y + 6, class: "hl-text" }, g);
          tx.textContent = it.text;
        }
      }
    }

    setPath(start, labels, cls) {
      const layer = this.layers.path;
      layer.innerHTML = "";
      if (!labels || !labels.length) return;
      const pts = [start, ...labels].map((l) => this.centreOf(l)).filter(Boolean);
      svg("polyline", { points: pts.map((p) => `${p.x},${p.y}`).join(" "), class: "path-line " + (cls || ""), "marker-end": "url(#arrow)",
                        "data-testid": "path-line" }, layer);
      pts.slice(1, -1).forEach((p) => svg("circle", { cx: p.x, cy: p.y, r: 3.5, class: "path-dot" }, layer));
    }

    setLine(labels) {
      const layer = this.layers.line;
      layer.innerHTML = "";
      if (!labels || !labels.length) return;
      for (const l of labels) {
        const c = this.centreOf(l);
        if (c) svg("polygon", { points: corners(c, 0.82), class: "los-hex", "data-testid": "los-" + l }, layer);
      }
      const a = this.centreOf(labels[0]), b = this.centreOf(labels[labels.length - 1]);
      if (a && b) svg("line", { x1: a.x, y1: a.y, x2: b.x, y2: b.y, class: "los-line" }, layer);
    }

    clearOverlays() {
      this.setHighlights([]);
      this.setPath(null, []);
      this.setLine([]);
    }

    destroy() { if (this._ro) this._ro.disconnect(); this.svg.remove(); }
  }

  /* The name of a terrain / hexside feature in the current language, from the map JSON.
   * `name_en` is used when it is English; the server currently sends the second name of the
   * ruleset's list, which for some terrains is a French alias ("case eau", "Maison"): then the
   * (English) id is shown instead. */
  function featureName(table, id) {
    const t = table && table[id];
    const fallback = String(id).replace(/_/g, " ");
    if (!t) return fallback;
    if (window.I18N && I18N.lang() === "fr") return t.name_fr || fallback;
    const en = String(t.name_en || "");
    const word = String(id).split("_")[0].toLowerCase();
    return en && en.toLowerCase().includes(word) ? en : fallback;
  }

  function shortName(n) {
    n = String(n || "");
    if (n.length <= 8) return n;
    const parts = n.split(/\s+/);
    const last = parts[parts.length - 1];
    return last.length <= 8 ? last : last.slice(0, 7) + "…";
  }

  window.OriflammeBoard = { Board, featureName, TERRAIN_STYLE, FEATURE_STYLE, SIDE_COLOURS, centre, S, defineSymbols, animalSymbol,
                           MIN_SCALE, COMPACT_MIN_PX, NAME_MIN_PX, FONT };
})();
