// Error budget arithmetic lives in the collector's pure budget module (one home for the page and the alerts).
export * from '@faultline/collector/budget';
