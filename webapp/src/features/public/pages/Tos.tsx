import PageIntro from '../content/PageIntro'
import { TOS_SECTIONS, type TosBlock } from '../content/tos'

export default function Tos() {
  return (
    <>
      <PageIntro eyebrow="Legal" title="Terms of service">
        <p>
          These terms set out how Marquee works for advertisers: your account, the ads you run, how booking and weekly
          billing work, and what happens if something goes wrong. Please read them before booking a campaign.
        </p>
      </PageIntro>

      <div className="mx-auto max-w-6xl px-4 py-12 sm:px-6 lg:grid lg:grid-cols-[16rem_1fr] lg:gap-12 lg:px-8">
        <nav aria-labelledby="tos-contents-title" className="mb-10 lg:mb-0">
          <div className="rounded-2xl bg-slate-50 p-5 ring-1 ring-slate-200 lg:sticky lg:top-24">
            <h2 id="tos-contents-title" className="scroll-mt-24 text-sm font-semibold uppercase tracking-wide text-slate-900">
              Contents
            </h2>
            <ol className="mt-3 space-y-1.5 text-sm">
              {TOS_SECTIONS.map((section, i) => (
                <li key={section.id} className="flex gap-2">
                  <span className="w-5 flex-none text-right tabular-nums text-slate-500">{i + 1}.</span>
                  <a
                    href={`#${section.id}`}
                    className="text-slate-700 hover:text-indigo-600 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-600"
                  >
                    {section.title}
                  </a>
                </li>
              ))}
            </ol>
          </div>
        </nav>

        <div className="max-w-3xl space-y-10">
          {TOS_SECTIONS.map((section, i) => (
            <section key={section.id} id={section.id} aria-labelledby={`${section.id}-title`} className="scroll-mt-24">
              <h2 id={`${section.id}-title`} className="text-xl font-semibold text-slate-900 sm:text-2xl">
                <span className="mr-2 tabular-nums text-indigo-600">{i + 1}.</span>
                {section.title}
              </h2>
              <div className="mt-3 space-y-4 leading-relaxed text-slate-700">
                {section.body.map((block, j) => (
                  <TosBlockView key={j} block={block} />
                ))}
              </div>
            </section>
          ))}
          <p className="border-t border-slate-200 pt-6">
            <a href="#tos-contents-title" className="text-sm font-semibold text-indigo-600 hover:underline">
              Back to contents
            </a>
          </p>
        </div>
      </div>
    </>
  )
}

function TosBlockView({ block }: { block: TosBlock }) {
  if (typeof block === 'string') return <p>{block}</p>
  return (
    <ul className="list-disc space-y-2 pl-6 marker:text-indigo-400">
      {block.list.map((item) => (
        <li key={item}>{item}</li>
      ))}
    </ul>
  )
}
