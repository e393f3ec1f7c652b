import { ReportView } from '../routes/ReportView'

/** B §2 /admin/reports/{id}: the report, with the mailer. */
export default function AdminReportView() {
  return <ReportView admin />
}
