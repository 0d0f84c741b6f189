"""What the browser tests share: how chromium is launched, and a fingerprint of plotted data."""

import os

CHROMIUM = os.environ.get("FLASHLAB_CHROMIUM", "/usr/bin/chromium")
# As the machine's own browser probe runs it: no sandbox as root, no background networking.
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]

# Fingerprint of every ColumnDataSource in every Bokeh document on the page.
DATA_FINGERPRINT_JS = """
() => {
  const out = [];
  for (const doc of (window.Bokeh ? Bokeh.documents : [])) {
    for (const m of doc.all_models) {
      if (m.properties == null || !("data" in m.properties)) continue;
      const cols = m.data instanceof Map ? Object.fromEntries(m.data) : m.data;
      for (const [k, v] of Object.entries(cols).sort()) {
        out.push(m.id + ":" + k + ":" + Array.from(v).join(","));
      }
    }
  }
  return out.join("|");
}
"""
