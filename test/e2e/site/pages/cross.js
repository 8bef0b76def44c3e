/* global document */
document.documentElement.dataset.crossScript = 'ran';
