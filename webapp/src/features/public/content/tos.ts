/** A block of a terms section: a paragraph, or a bulleted list. */
export type TosBlock = string | { list: readonly string[] }

export interface TosSection {
  /** Anchor id, linked from the table of contents. */
  id: string
  title: string
  body: readonly TosBlock[]
}

export const TOS_SECTIONS: readonly TosSection[] = [
  {
    id: 'about',
    title: 'About these terms',
    body: [
      'These Terms of Service ("Terms") govern your use of Marquee, a self-service marketplace where businesses book advertising on digital billboards ("screens" or "faces") operated by independent media owners. "Marquee", "we" and "us" mean the operator of the Marquee platform; "you" means the person using the platform and the company on whose behalf they act.',
      'By creating an account, booking a campaign or otherwise using Marquee you accept these Terms. If you do not accept them, do not use the platform.',
    ],
  },
  {
    id: 'account',
    title: 'Your account',
    body: [
      'You must be at least 18 years old and able to enter into contracts to open an account. Each account belongs to one company; the person who registers it confirms that they are authorised to bind that company to these Terms.',
      {
        list: [
          'Give accurate company and contact details and keep them up to date.',
          'Keep your password confidential. You are responsible for everything done through your account, including by team members you invite.',
          'Tell us at once at support@marquee.example if you believe your account has been used without permission.',
          'Company names are unique on Marquee; we may refuse or change a registration that impersonates another business.',
        ],
      },
    ],
  },
  {
    id: 'company',
    title: 'Your company’s responsibilities',
    body: [
      'You are the advertiser of record for every campaign booked from your account. You are responsible for the content of your ads, for any claims they make, and for complying with the laws and industry codes that apply to your business and your advertising, including consumer protection, truth-in-advertising, privacy and licensing rules in each market where your ad runs.',
      'If you book on behalf of a client, you confirm that you have the client’s authority to do so, and you remain responsible to us for payment and for the content of the ads.',
    ],
  },
  {
    id: 'content-standards',
    title: 'Content standards',
    body: [
      'Digital billboards are seen by everyone who passes, including children. Ads booked through Marquee must not:',
      {
        list: [
          'be false, misleading or deceptive, or make claims you cannot substantiate;',
          'infringe anyone’s copyright, trademark, publicity or privacy rights;',
          'contain sexually explicit material, graphic violence, hate speech or content that harasses or demeans any person or group;',
          'promote illegal goods or services, or products whose outdoor advertising is restricted (such as tobacco, vaping, cannabis or firearms) except where the law and the media owner allow it;',
          'imitate traffic signs or signals, flash, or otherwise distract drivers in a way that could compromise road safety;',
          'omit disclosures required by law, such as the “paid for by” statement on political and issue ads.',
        ],
      },
      'Media owners may apply additional standards for their own screens. Where they do, those standards apply to ads on those screens.',
    ],
  },
  {
    id: 'creative-approval',
    title: 'Review and approval of creatives',
    body: [
      'Every creative is reviewed before it runs, by Marquee and by the media owner of each screen you book. We or a media owner may reject a creative, or ask you to change it, if it does not meet these Terms, the media owner’s standards or the technical requirements (a 1400 × 400 image; uploads as JPEG or TIFF files of up to 10 MB).',
      'If a creative is rejected you may replace it. If an acceptable creative is not in place before a booked week starts, that week may run your company’s default creative or be left unfilled, and it is billed as booked. We may remove an ad that is already running if we learn that it breaks these Terms or the law.',
    ],
  },
  {
    id: 'bookings',
    title: 'Campaigns, scheduling and availability',
    body: [
      'A campaign is a booking of one or more faces for one or more consecutive weeks. Every campaign week starts on a Monday and ends on a Sunday, and a campaign may run for at most 52 weeks unless it is booked as ongoing.',
      'The booking cut-off is Wednesday: a campaign booked by Wednesday can start the following Monday; a campaign booked later starts no earlier than the Monday after that. A campaign can no longer be edited once its start date is five days away or less.',
      'Inventory is shared with other advertisers. A booking is confirmed only when we accept it. If a face you chose is no longer available for some weeks, we will offer alternative dates; you may accept them or keep your own dates for the weeks that remain available.',
      'During a booked week your ad appears Monday through Sunday in the screen’s rotation with other advertisers, for the spot duration (about 8 seconds) at the rotation frequency shown for that face.',
    ],
  },
  {
    id: 'pricing-billing',
    title: 'Pricing and weekly billing',
    body: [
      'Each face has a weekly price set from its inventory and shown in US dollars, rounded up to the next $10 and without cents. The weekly budget of a campaign is the sum of the weekly prices of its faces, less any account credit applied to that week, and never less than $0. The total cost of a campaign is its weekly budget multiplied by its number of weeks. Prices shown at confirmation are the prices you pay for that booking.',
      'You must keep a valid payment card on file. We charge the weekly budget to your card each Monday for the week that starts that day. By booking, you authorise these weekly charges until the campaign ends, or, for an ongoing campaign, until you pause or stop it.',
      'Prices exclude any taxes that apply, which are added where required. If a charge fails we may pause your campaigns until payment is made.',
    ],
  },
  {
    id: 'credit',
    title: 'Account credit and promo codes',
    body: [
      'Account credit, including credit added by redeeming a promo code, is applied to a campaign split evenly across its weeks and reduces each week’s charge. Credit has no cash value, cannot be transferred to another company and may not be redeemed for a refund. Promo codes are subject to the limits stated with them, may be redeemed once per company and may expire or be withdrawn.',
    ],
  },
  {
    id: 'cancellation',
    title: 'Pausing, stopping and cancelling',
    body: [
      {
        list: [
          'Pause. You may pause an active or pending campaign. The pause applies from the first Monday that is still before the Wednesday cut-off; weeks before then run and are billed as booked. You may resume a paused campaign; resumed weeks are subject to availability.',
          'Stop. Marking a campaign complete ends it after the weeks that can no longer be changed. This cannot be undone; to advertise again, book a new campaign.',
          'Cancel before start. You may delete a campaign that has not started. If you delete it before the Wednesday cut-off for its first week, nothing is charged; after the cut-off, the first week is billed as booked.',
        ],
      },
      'We may pause, shorten or cancel a campaign if a screen is withdrawn from sale, if payment fails, or if a creative or your use of the platform breaks these Terms.',
    ],
  },
  {
    id: 'refunds',
    title: 'Refunds and make-goods',
    body: [
      'Charges for weeks that have run are non-refundable. If a week is charged and then does not run because of something on our side or the media owner’s side (for example a screen outage, or a face withdrawn after booking), we will, at your choice, run the ad for an equivalent period on the same or a comparable face, add the unused amount to your account credit, or refund it to your card.',
      'To ask for a refund or make-good, write to support@marquee.example within 30 days after the end of the affected week, naming the campaign and the week. Refunds are returned to the card that was charged.',
    ],
  },
  {
    id: 'proofs',
    title: 'Delivery, impressions and proofs of play',
    body: [
      'Impression figures are estimates of how many people are likely to see an ad, based on each screen’s location, audience data and the number of plays. Estimates shown before booking are not guaranteed. Your campaign page shows, week by week, the minimum impressions estimated at booking alongside the actual impressions reported for the screens.',
      'Media owners provide proofs of play, such as photographs of your ad on the screen, which we publish on your campaign page. You may generate PDF performance reports for finished weeks. Delivery data is provided for your information and we use reasonable care in compiling it, but it may rely on data from media owners and third-party measurement providers.',
    ],
  },
  {
    id: 'licence',
    title: 'Your content and our licence to use it',
    body: [
      'You keep all rights in the creatives and other material you upload. You grant Marquee and the media owners you book a non-exclusive, worldwide, royalty-free licence to store, reproduce, resize and display that material as needed to review and run your campaigns and to produce proofs and reports. You confirm that you own or have licensed everything in your creatives, including images, fonts, music and the names or likenesses of people.',
      'Marquee’s software, design, map and data, and the ad builder, remain ours. You may use them only to plan and manage your own advertising on Marquee.',
    ],
  },
  {
    id: 'acceptable-use',
    title: 'Acceptable use of the platform',
    body: [
      {
        list: [
          'Do not try to access accounts, data or systems you are not authorised to use.',
          'Do not scrape, copy or resell inventory, prices or location data from Marquee.',
          'Do not interfere with the platform’s operation, upload malware, or test its security without our written permission.',
          'Do not book inventory you do not intend to pay for, or use the platform to compete with Marquee by building a similar service.',
        ],
      },
    ],
  },
  {
    id: 'liability',
    title: 'Disclaimers and limitation of liability',
    body: [
      'Apart from the commitments stated in these Terms, Marquee is provided “as is”. We do not promise that the platform will be uninterrupted or error-free, or that any campaign will achieve a particular number of impressions, visits or sales.',
      'To the extent the law allows, neither you nor we will be liable for indirect, incidental, special or consequential loss, or for lost profits, revenue or goodwill, arising from these Terms or the use of Marquee. Our total liability for all claims in any twelve-month period is limited to the amount you paid us for campaigns in the three months before the event that gave rise to the claim.',
      'Nothing in these Terms limits liability that cannot be limited by law, including liability for fraud or for death or personal injury caused by negligence.',
    ],
  },
  {
    id: 'indemnity',
    title: 'Indemnity',
    body: [
      'You will defend and indemnify Marquee and the media owners whose screens you book against claims, fines and costs (including reasonable legal fees) arising from your creatives, from your breach of these Terms, or from your breach of the law.',
    ],
  },
  {
    id: 'privacy',
    title: 'Privacy',
    body: [
      'We process the personal data of your users and team members to run your account, take payment and provide support. Card details are handled by our payment provider; we keep only the last four digits and the expiry date to show you which card is on file. Our Privacy Notice explains what we collect, why, how long we keep it and your rights; ask for a copy at privacy@marquee.example.',
    ],
  },
  {
    id: 'termination',
    title: 'Suspension and termination',
    body: [
      'You may close your account at any time after your campaigns have ended and all amounts due are paid. We may suspend or close an account that breaks these Terms, fails to pay, or puts other users, media owners or the platform at risk; where we can, we will tell you why and give you a chance to put things right first. Sections on payment, licences, liability, indemnity and governing law survive termination.',
    ],
  },
  {
    id: 'changes',
    title: 'Changes to these terms',
    body: [
      'We may update these Terms as the platform changes. We will tell you about material changes by email or in the app at least 14 days before they take effect. Changes do not affect the price of weeks already booked. If you keep using Marquee after a change takes effect, the updated Terms apply; if you do not accept them, stop booking and close your account.',
    ],
  },
  {
    id: 'law',
    title: 'Governing law and disputes',
    body: [
      'These Terms are governed by the laws of the State of Delaware, without regard to its conflict-of-laws rules. The state and federal courts located in the State of Delaware have exclusive jurisdiction over any dispute arising from these Terms or the use of Marquee, and both parties consent to that jurisdiction. Before filing a claim, each party will first try in good faith to resolve the dispute by written notice and discussion for at least 30 days.',
    ],
  },
  {
    id: 'contact',
    title: 'Contact',
    body: [
      'Questions about these Terms: support@marquee.example. Media owners listing inventory: partners@marquee.example.',
    ],
  },
]
