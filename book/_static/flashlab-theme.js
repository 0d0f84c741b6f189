// Bokeh figures follow the book's light/dark mode (the theme sets <html data-theme="...">).
// The figures are built for a light page; in dark mode their frame, axes, grids, titles and
// legends take the theme's own colours, and the original colours come back in light mode.
// Data colours (lines, markers) stay as they are.
(function () {
  "use strict";
  const ORIGINAL = new WeakMap(); // model -> {property: light-mode value}

  function themeColours() {
    const css = getComputedStyle(document.documentElement);
    const get = (name, fallback) => css.getPropertyValue(name).trim() || fallback;
    return {
      background: get("--pst-color-background", "#14181e"),
      text: get("--pst-color-text-base", "#ced6dd"),
      muted: get("--pst-color-text-muted", "#9ca4af"),
      grid: get("--pst-color-border", "#48566b"),
    };
  }

  // Which properties of which kind of model get which theme colour.
  function darkValues(model, c) {
    const has = (p) => model.properties != null && p in model.properties;
    const out = {};
    const set = (p, v) => { if (has(p) && model[p] != null) out[p] = v; };
    if (has("toolbar") && has("background_fill_color")) { // a plot
      set("background_fill_color", c.background);
      set("border_fill_color", c.background);
      set("outline_line_color", c.grid);
    } else if (has("axis_label_text_color")) { // an axis
      set("axis_line_color", c.muted);
      set("major_tick_line_color", c.muted);
      set("minor_tick_line_color", c.muted);
      set("major_label_text_color", c.text);
      set("axis_label_text_color", c.text);
    } else if (has("grid_line_color")) { // a grid
      set("grid_line_color", c.grid);
    } else if (has("label_text_color") && has("background_fill_color")) { // a legend
      set("background_fill_color", c.background);
      set("border_line_color", c.grid);
      set("label_text_color", c.text);
    } else if (has("text_color") && has("text")) { // a title
      set("text_color", c.text);
    }
    return out;
  }

  function apply() {
    if (!window.Bokeh) return;
    const dark = document.documentElement.dataset.theme === "dark";
    const c = themeColours();
    for (const doc of Bokeh.documents) {
      for (const model of doc.all_models) {
        const values = darkValues(model, c);
        if (Object.keys(values).length === 0) continue;
        if (!ORIGINAL.has(model)) {
          const light = {};
          for (const p of Object.keys(values)) light[p] = model[p];
          ORIGINAL.set(model, light);
        }
        model.setv(dark ? values : ORIGINAL.get(model));
      }
    }
  }

  // On a switch of mode, and as figures appear (bokeh embeds them after the page loads).
  new MutationObserver(apply).observe(document.documentElement, {attributes: true, attributeFilter: ["data-theme"]});
  let seen = 0;
  const timer = setInterval(() => {
    const n = window.Bokeh ? Bokeh.documents.length : 0;
    if (n !== seen) { seen = n; apply(); }
  }, 250);
  window.addEventListener("load", () => setTimeout(() => clearInterval(timer), 15000));
  window.flashlabApplyTheme = apply;
})();
