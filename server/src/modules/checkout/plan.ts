import type { Plan } from '@streamshop/contract/constants.ts';
import type { Tx } from '../../db/client.ts';
import { applyPlanToUnstartedStreams } from '../streams/service.ts';
import { setUserPlan } from './payment-events-repo.ts';

/**
 * Puts the account on `plan`, and the streams it created but has not started with it; a live
 * stream keeps the limits it started with until it ends.
 */
export async function putOnPlan(tx: Tx, userId: string, plan: Plan): Promise<void> {
  await setUserPlan(tx, userId, plan);
  await applyPlanToUnstartedStreams(tx, userId, plan);
}
