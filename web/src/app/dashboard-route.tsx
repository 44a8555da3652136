import { DashboardPage } from '../features/dashboard/dashboard-page.tsx';
import { ChatSettingsDialog } from '../features/moderation/chat-settings-dialog.tsx';
import { ProPlanSummary } from '../features/subscribe/pro-plan-summary.tsx';

/** /dashboard: the seller's dashboard, with the Pro plan's row and the chat settings it opens. */
export function DashboardRoute() {
  return <DashboardPage PlanSummary={ProPlanSummary} ChatSettingsDialog={ChatSettingsDialog} />;
}
