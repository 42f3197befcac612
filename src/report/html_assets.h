/*
 * html_assets.h - the browser code embedded at build time from
 * src/html/ (src/html/assets.S): NUL-terminated UTF-8 text.
 */
#ifndef PCT_HTML_ASSETS_H
#define PCT_HTML_ASSETS_H
extern const char pct_asset_report_js[];      /* src/html/report.js */
extern const char pct_asset_report_css[];     /* src/html/report.css */
extern const char pct_asset_flame_svg_js[];   /* src/html/flame-svg.js */
#endif
