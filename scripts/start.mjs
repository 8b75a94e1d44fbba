// Placeholder until the collector and dashboard land: tells what is here and how to use it.
console.log('Faultline: @faultline/instrumentation is built. See README.md for usage.');
