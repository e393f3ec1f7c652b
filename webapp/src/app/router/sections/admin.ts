// The admin section's lazy bundle (DESIGN §6): the admin area (B §2).
import NewPromo from '../../../features/billing/routes/NewPromo'
import Promos from '../../../features/billing/routes/Promos'
import AdminCompanies from '../../../features/identity/admin/AdminCompanies'
import AdminUsers from '../../../features/identity/admin/AdminUsers'
import AuditLog from '../../../features/identity/admin/AuditLog'
import NotAvailable from '../../../platform/NotAvailable'

export const screens = { NotAvailable, Promos, NewPromo, AdminUsers, AdminCompanies, AuditLog }
