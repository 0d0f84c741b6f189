// Accessibility of the explorables' controls (WCAG 2.1 AA), on every page of the book.
// BokehJS draws a slider with noUiSlider inside the widget's shadow root: its handle (the element
// with role="slider" that takes the keyboard) has no accessible name, and its aria-valuetext is
// the grid index the slider moves over ("3.00"), not the setting the reader sees. Each handle is
// named by the slider's title (which carries the unit) and says the setting shown beside it; the
// handles and buttons get a focus ring that shows in light and dark mode. On paper the controls
// (sliders, buttons, plot toolbars) are left out: the page's print stylesheet cannot reach them
// in their shadow roots, so each shadow root holding one gets the rule itself.
(function () {
  "use strict";
  const DONE = new WeakSet();
  const FOCUS_CSS = `
    .noUi-handle:focus-visible, .bk-btn:focus-visible, .bk-input:focus-visible {
      outline: 3px solid #1a73e8; outline-offset: 2px; box-shadow: 0 0 0 5px #ffffff;
    }`;
  const CONTROLS = ".bk-Slider, .bk-Button, .bk-ToolbarPanel, .bk-Toolbar";
  const PRINT_CSS = `@media print { ${CONTROLS} { display: none !important; } }`;

  function views() {
    const out = [];
    const visit = (v) => { out.push(v); for (const c of (v.children ? v.children() : [])) visit(c); };
    for (const root of (window.Bokeh ? Bokeh.index : [])) visit(root);
    return out;
  }

  function readout(view) {
    const value = view.shadow_el.querySelector(".bk-slider-value");
    return value != null ? value.textContent.trim() : null;
  }

  function labelSlider(view) {
    const handle = view.shadow_el.querySelector(".noUi-handle");
    if (handle == null) return;
    handle.setAttribute("aria-label", view.model.title || "Setting");
    const say = () => {
      const shown = readout(view);
      if (shown != null) handle.setAttribute("aria-valuetext", shown);
    };
    say();
    new MutationObserver(say).observe(handle, {attributes: true, attributeFilter: ["aria-valuenow"]});
  }

  function addStyle(root, css) {
    const style = document.createElement("style");
    style.textContent = css;
    root.appendChild(style);
  }

  function apply() {
    for (const view of views()) {
      if (DONE.has(view) || view.shadow_el == null) continue;
      const root = view.shadow_el;
      const holdsControls = root.querySelector(CONTROLS) != null;
      const isControl = root.querySelector(".noUi-handle, .bk-btn, .bk-input") != null;
      if (!holdsControls && !isControl) continue;
      DONE.add(view);
      if (holdsControls) addStyle(root, PRINT_CSS);
      if (!isControl) continue;
      addStyle(root, FOCUS_CSS);
      if (root.querySelector(".noUi-handle") != null && "title" in view.model.properties) labelSlider(view);
    }
  }

  // The theme puts the book's title (a link home) above the navigation, outside every landmark
  // (axe's "region" rule): the sidebar's top part joins the navigation it introduces.
  function landmarks() {
    const top = document.querySelector(".sidebar-primary-items__start");
    if (top != null && top.closest("nav, [role=navigation]") == null) {
      top.setAttribute("role", "navigation");
      top.setAttribute("aria-label", "Book");
    }
  }
  landmarks();
  document.addEventListener("DOMContentLoaded", landmarks);

  // Bokeh embeds the figures after the page loads: label them as they appear.
  let seen = -1;
  const timer = setInterval(() => {
    const n = window.Bokeh ? views().length : 0;
    if (n !== seen) { seen = n; apply(); }
  }, 250);
  window.addEventListener("load", () => setTimeout(() => clearInterval(timer), 15000));
  window.flashlabApplyA11y = apply;
})();
