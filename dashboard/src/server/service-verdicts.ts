import type { ServiceVerdict } from '@faultline/collector';
import { cache } from 'react';
import { loadAlertConfig } from './alert-data';
import { collectorModule } from './collector-module';
import { getStore } from './store';

/**
 * Every service as the alert evaluator judges it now (judgeServices: the evaluator's own reading,
 * run here without an evaluator): each burn window judged or "not enough traffic to judge", each
 * rule, its last data and whether it is stale. Null when the alert settings are invalid (the Rules
 * panel says why). Once per render: it reads three days of budget, and two panels show it.
 */
export const loadServiceVerdicts = cache(async (): Promise<ServiceVerdict[] | null> => {
  const loaded = await loadAlertConfig();
  if (!loaded.config) return null;
  const { judgeServices } = await collectorModule();
  return (await judgeServices(await getStore(), loaded.config, Date.now())).services;
});
