// The partner section's lazy bundle (DESIGN §6): ambassador and certified screens (B §2).
import CampaignsLinked from '../../../features/partners/routes/CampaignsLinked'
import CodesRedeemed from '../../../features/partners/routes/CodesRedeemed'
import Exam from '../../../features/partners/routes/Exam'
import Hub from '../../../features/partners/routes/Hub'
import Invite from '../../../features/partners/routes/Invite'
import NotAvailable from '../../../platform/NotAvailable'

export const screens = { NotAvailable, Invite, CodesRedeemed, CampaignsLinked, Hub, Exam }
