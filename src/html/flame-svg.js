/* flame-svg.js */
