/*
 * assets.S - the browser code of pct's HTML report and SVG flame graph,
 * embedded in the pct tool at build time (html_assets.h names them).
 * Each file is followed by a NUL so that C can print it as a string.
 */
	.section .rodata
	.global pct_asset_report_js, pct_asset_report_css, pct_asset_flame_svg_js
pct_asset_report_js:
	.incbin "src/html/report.js"
	.byte 0
pct_asset_report_css:
	.incbin "src/html/report.css"
	.byte 0
pct_asset_flame_svg_js:
	.incbin "src/html/flame-svg.js"
	.byte 0
	.section .note.GNU-stack,"",@progbits
