/* report.js: placeholder */
