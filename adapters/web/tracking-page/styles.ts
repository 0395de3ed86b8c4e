/**
 * The page's whole style sheet, inlined under the response's CSP nonce: no outside font or
 * file. One column on a phone (375 px and up), map and timeline side by side on a desk.
 */
export const TRACKING_PAGE_CSS = `
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;font:16px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:#1d2733;background:#eef2f6}
header{background:#17324d;color:#fff;padding:20px 16px 18px}
.wrap{max-width:1180px;margin:0 auto}
.eyebrow{margin:0;font-size:13px;letter-spacing:.08em;text-transform:uppercase;color:#a9c3dd}
h1{margin:2px 0 8px;font-size:26px;line-height:1.2;overflow-wrap:anywhere}
h2{margin:0 0 10px;font-size:15px;letter-spacing:.04em;text-transform:uppercase;color:#52657a}
.status{display:inline-block;margin:0;padding:3px 10px;border-radius:999px;font-size:14px;font-weight:600;background:#2f6fa8;color:#fff}
.status-delivered{background:#23804a}.status-cancelled{background:#8a3b3b}.status-intransit{background:#d9822b}
main{padding:16px;display:grid;gap:16px;grid-template-columns:minmax(0,1fr)}
.card{background:#fff;border-radius:12px;padding:16px;box-shadow:0 1px 3px rgba(20,40,60,.12)}
.eta-text{margin:0;font-size:21px;font-weight:650;line-height:1.3}
.eta-late{color:#b4461b}.eta-ontime{color:#23804a}
.muted{margin:6px 0 0;color:#5b6b7c;font-size:14px}
.map-card{padding:0;overflow:hidden}
.map{display:block;width:100%;height:auto}
.map-water{fill:#dce8f2}
.map-states path{fill:#f8f6f0;stroke:#a8b4c0;stroke-width:1;stroke-linejoin:round}
.map-route{fill:none;stroke:#2f6fa8;stroke-width:4;stroke-dasharray:10 7;stroke-linecap:round;stroke-linejoin:round}
.map-stop circle{fill:#2f6fa8;stroke:#fff;stroke-width:3}
.map-stop-completed circle{fill:#23804a}
.map-stop text{fill:#fff;font-size:16px;font-weight:700}
.map-stop .map-label{fill:#17324d;font-size:18px;font-weight:600;paint-order:stroke;stroke:#fff;stroke-width:4px;stroke-linejoin:round}
.map-truck rect,.map-truck .map-wheel{fill:#d9822b;stroke:#fff;stroke-width:1.5}
.map-truck-halo{fill:rgba(217,130,43,.25);stroke:#d9822b;stroke-width:2}
.map-caption{margin:0;padding:10px 16px;font-size:14px;color:#5b6b7c;border-top:1px solid #e3e9ef}
.timeline{list-style:none;margin:0;padding:0}
.stop{position:relative;display:flex;gap:12px;padding:0 0 18px}
.stop:last-child{padding-bottom:0}
.stop:not(:last-child)::before{content:"";position:absolute;left:15px;top:32px;bottom:0;width:2px;background:#c9d4df}
.stop-number{flex:none;width:32px;height:32px;border-radius:50%;display:flex;align-items:center;justify-content:center;font-weight:700;color:#fff;background:#2f6fa8}
.stop-completed .stop-number{background:#23804a}.stop-arrived .stop-number{background:#d9822b}
.stop-body{min-width:0}
.stop-title{margin:4px 0 2px;font-weight:650;overflow-wrap:anywhere}
.stop-type{color:#52657a;font-weight:600;margin-right:6px}
.badge{display:inline-block;margin-left:6px;padding:1px 8px;border-radius:999px;font-size:12px;font-weight:600;background:#e6edf4;color:#36506a;vertical-align:2px}
.stop-line{margin:0;font-size:14px;color:#3b4a5a}
dl{margin:0;display:grid;grid-template-columns:auto 1fr;gap:4px 14px}
dt{color:#5b6b7c}dd{margin:0;font-weight:600;overflow-wrap:anywhere}
.notes{list-style:none;margin:0;padding:0}
.note+.note{margin-top:12px;padding-top:12px;border-top:1px solid #e3e9ef}
.note-text{margin:0;white-space:pre-line;overflow-wrap:anywhere}
footer{padding:4px 16px 24px;color:#6b7a89;font-size:13px}
.error{max-width:560px;margin:48px auto;padding:0 16px}
@media (min-width:900px){
  header{padding:26px 24px 22px}
  main{padding:24px;grid-template-columns:minmax(0,1.6fr) minmax(0,1fr);align-items:start}
  .col{display:grid;gap:16px}
  h1{font-size:30px}
  footer{padding:4px 24px 28px}
}
@media (max-width:899px){.col{display:contents}}
`;
