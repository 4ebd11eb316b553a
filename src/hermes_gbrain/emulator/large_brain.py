"""A larger fictional brain (~330 pages) for relevance benchmarks: ``Emulator(brain="large")``.

It keeps every page of the small sample brain (Kestrel Works) and adds people, partner
companies, projects, concepts, decisions, and many meetings and notes whose titles hold
ordinary words — plans, reviews, updates, capital, notes, reports, trips — the words that
make an untuned relevance gate brief "help me plan a hiking trip" with a hiring plan — and
pages titled and written in Chinese, Japanese, Russian, German, Spanish and Arabic.
Everything is generated from the fixed tables below (no randomness), so page ids, slugs and
timestamps are the same on every run.
"""

# ruff: noqa: RUF001 - pages in other scripts use their own punctuation
from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

from hermes_gbrain.emulator import sample_brain
from hermes_gbrain.emulator.store import PageStore, iso_of

_BASE = datetime(2026, 4, 1, 8, 0, tzinfo=UTC)

# (first, last, role, company slug tail, project slug tail, a distinctive detail)
PEOPLE: tuple[tuple[str, str, str, str, str, str], ...] = (
    ("Amara", "Nwosu", "product designer", "kestrel-works", "osprey-tracker",
     "sketches every screen on paper before opening Figma"),
    ("Bruno", "Castell", "backend engineer", "kestrel-works", "tidepool-dashboard",
     "maintains the PostgreSQL cluster and the nightly vacuum jobs"),
    ("Chiara", "Valdez", "field coordinator", "marula-conservancy", "ranger-roster",
     "schedules ranger shifts across the northern sector"),
    ("Dmitri", "Sorensen", "security engineer", "kestrel-works", "keystone-auth",
     "runs the quarterly penetration test and rotates signing keys"),
    ("Esther", "Okonkwo", "data scientist", "kestrel-works", "fernseed-classifier",
     "labels leopard and pangolin photos for the training set"),
    ("Farid", "Haddad", "mobile engineer", "kestrel-works", "beacon-app",
     "fixed the Bluetooth pairing crash on older Android phones"),
    ("Greta", "Holm", "investor", "northwind-capital", "series-a-fundraise",
     "asks for cohort retention charts in every update"),
    ("Hiroshi", "Tanaka", "hardware engineer", "kestrel-works", "solar-collar",
     "designed the solar charging board for the tracking collar"),
    ("Imani", "Baraka", "conservancy manager", "marula-conservancy", "ranger-roster",
     "approves patrol budgets for the conservancy"),
    ("Javier", "Morales", "support lead", "kestrel-works", "helpdesk-revamp",
     "answers ranger tickets in Spanish and Portuguese"),
    ("Kaito", "Mori", "machine learning engineer", "kestrel-works", "poacher-alerts",
     "tunes the gunshot detector on acoustic sensors"),
    ("Leila", "Farahani", "legal counsel", "kestrel-works", "data-retention-audit",
     "reviews every data processing agreement"),
    ("Mateo", "Rossi", "sales lead", "kestrel-works", "conservancy-pilots",
     "closed the Okavango pilot contract"),
    ("Nadia", "Petrova", "finance manager", "kestrel-works", "budget-forecast",
     "keeps the cash runway model in a spreadsheet"),
    ("Oren", "Levi", "advisor", "cobalt-ridge-partners", "series-a-fundraise",
     "introduced the team to two climate funds"),
    ("Paulina", "Wojcik", "QA engineer", "kestrel-works", "beacon-app",
     "runs the offline regression suite on twelve phones"),
    ("Quentin", "Dubois", "partnerships manager", "savanna-trust", "conservancy-pilots",
     "negotiates data sharing with park authorities"),
    ("Rosa", "Ibarra", "ecologist", "marula-conservancy", "camera-grid",
     "places camera traps along elephant corridors"),
    ("Sanjay", "Mehta", "devops engineer", "kestrel-works", "tidepool-dashboard",
     "moved the deployment pipeline to GitHub Actions"),
    ("Tamsin", "Blake", "technical writer", "kestrel-works", "field-handbook",
     "writes the ranger field handbook"),
    ("Ugo", "Eze", "ranger trainer", "marula-conservancy", "field-handbook",
     "trains new rangers on the capture screen"),
    ("Vera", "Lindgren", "board member", "northwind-capital", "series-a-fundraise",
     "chairs the audit committee"),
    ("Wanjiru", "Kamau", "community liaison", "savanna-trust", "village-outreach",
     "runs village meetings about human-wildlife conflict"),
    ("Xavier", "Dumont", "cloud architect", "kestrel-works", "ledger-lake",
     "designed the DuckDB partitioning scheme"),
    ("Yara", "Haddad", "UX researcher", "kestrel-works", "osprey-tracker",
     "interviews rangers about glove-friendly buttons"),
    ("Zoltan", "Kovacs", "firmware engineer", "kestrel-works", "solar-collar",
     "wrote the low-power radio firmware for the collar"),
    ("Aisha", "Diallo", "operations manager", "kestrel-works", "warehouse-move",
     "runs the Nairobi warehouse and device shipping"),
    ("Bjorn", "Halvorsen", "investor", "harbor-vale-capital", "series-a-fundraise",
     "led the bridge note in January"),
    ("Camila", "Souza", "marketing lead", "kestrel-works", "brand-refresh",
     "rewrote the website copy and the pitch deck"),
    ("Dario", "Bianchi", "drone pilot", "savanna-trust", "drone-survey",
     "flies thermal drone surveys at night"),
    ("Elif", "Yilmaz", "platform engineer", "kestrel-works", "keystone-auth",
     "built single sign-on for conservancy staff"),
    ("Felix", "Wagner", "embedded engineer", "kestrel-works", "acoustic-sensors",
     "ported the audio classifier to a microcontroller"),
    ("Gabriela", "Nunez", "grant writer", "savanna-trust", "grant-applications",
     "wrote the wildlife foundation grant"),
    ("Hamid", "Rahimi", "network engineer", "kestrel-works", "mesh-radio",
     "set up the LoRa mesh between ranger posts"),
    ("Ines", "Carvalho", "accountant", "kestrel-works", "budget-forecast",
     "closes the books every month"),
    ("Jomo", "Otieno", "head ranger", "savanna-trust", "poacher-alerts",
     "leads the rapid response unit"),
    ("Katja", "Brandt", "product manager", "kestrel-works", "tidepool-dashboard",
     "owns the reporting roadmap"),
    ("Lorenzo", "Greco", "recruiter", "kestrel-works", "hiring-pipeline",
     "sources mobile engineers in Lisbon"),
    ("Mei", "Lin", "data engineer", "kestrel-works", "ledger-lake",
     "wrote the deduplication step of the nightly load"),
    ("Nikolai", "Ivanov", "site reliability engineer", "kestrel-works", "tidepool-dashboard",
     "carries the pager for the reporting service"),
    ("Olga", "Novak", "veterinarian", "marula-conservancy", "solar-collar",
     "fits collars on sedated rhinos"),
    ("Pedro", "Alves", "investor", "silverline-capital", "series-a-fundraise",
     "wants a path to profitability in the model"),
    ("Rania", "Saleh", "data protection officer", "kestrel-works", "data-retention-audit",
     "answers subject access requests"),
    ("Stefan", "Novak", "solutions engineer", "kestrel-works", "conservancy-pilots",
     "installs base stations at pilot sites"),
    ("Thandiwe", "Zulu", "researcher", "savanna-trust", "camera-grid",
     "counts lion prides from camera trap photos"),
    ("Umar", "Farouk", "logistics coordinator", "kestrel-works", "warehouse-move",
     "tracks customs paperwork for device shipments"),
    ("Valentina", "Russo", "designer", "kestrel-works", "brand-refresh",
     "drew the new kestrel logo"),
    ("Wilhelmina", "Fox", "auditor", "oakmoor-capital", "budget-forecast",
     "audits the annual accounts"),
)  # fmt: skip

# (name, slug tail, what it is, a distinctive detail)
COMPANIES: tuple[tuple[str, str, str, str], ...] = (
    ("Northwind Capital", "northwind-capital", "a climate venture fund",
     "led a seed extension and holds one board seat"),
    ("Harbor Vale Capital", "harbor-vale-capital", "a family office investing in nature tech",
     "wrote the bridge note in January"),
    ("Silverline Capital", "silverline-capital", "a growth fund",
     "is considering the Series A lead"),
    ("Oakmoor Capital", "oakmoor-capital", "an accounting and audit firm",
     "audits the annual accounts"),
    ("Cobalt Ridge Partners", "cobalt-ridge-partners", "an advisory firm",
     "advises on fundraising strategy"),
    ("Savanna Trust", "savanna-trust", "a conservation charity",
     "runs three wildlife reserves and a drone program"),
    ("Okavango Wildlife Foundation", "okavango-wildlife-foundation", "a grant-making foundation",
     "funds anti-poaching technology"),
    ("Tern Telecom", "tern-telecom", "a rural mobile operator",
     "provides SIM cards for ranger phones"),
    ("Granite Peak Hosting", "granite-peak-hosting", "a cloud hosting provider",
     "hosts the reporting servers in Frankfurt"),
    ("Lumen Collars", "lumen-collars", "a collar manufacturer",
     "assembles the solar tracking collars"),
    ("Blue Heron Logistics", "blue-heron-logistics", "a freight forwarder",
     "ships devices from Lisbon to Nairobi"),
    ("Acacia Mapping", "acacia-mapping", "a satellite imagery vendor",
     "sells monthly satellite tiles of the reserves"),
    ("Ridgeback Security", "ridgeback-security", "a penetration testing firm",
     "ran the external security assessment"),
    ("Meadowlark Design Studio", "meadowlark-design-studio", "a branding agency",
     "designed the new brand identity"),
    ("Kudu Payments", "kudu-payments", "a payments processor",
     "handles conservancy invoices in three currencies"),
    ("Baobab Legal", "baobab-legal", "a law firm",
     "drafted the data processing agreements"),
)  # fmt: skip

# (name, slug tail, description with distinctive words, owner slug tail)
PROJECTS: tuple[tuple[str, str, str, str], ...] = (
    ("Osprey Tracker", "osprey-tracker",
     "follows migrating ospreys with lightweight GPS tags and shows their routes on a map",
     "amara-nwosu"),
    ("Tidepool Dashboard", "tidepool-dashboard",
     "is the web dashboard where conservancy managers read patrol statistics and heatmaps",
     "katja-brandt"),
    ("Ranger Roster", "ranger-roster",
     "plans ranger shifts, leave and patrol routes for each sector", "chiara-valdez"),
    ("Keystone Auth", "keystone-auth",
     "is the login and single sign-on service shared by every app", "elif-yilmaz"),
    ("Solar Collar", "solar-collar",
     "is a solar-powered tracking collar for rhinos and elephants", "hiroshi-tanaka"),
    ("Helpdesk Revamp", "helpdesk-revamp",
     "moves ranger support tickets into one queue with canned answers", "javier-morales"),
    ("Poacher Alerts", "poacher-alerts",
     "detects gunshots and chainsaws from acoustic sensors and pages the response unit",
     "kaito-mori"),
    ("Data Retention Audit", "data-retention-audit",
     "checks that observation records are deleted when the retention period ends",
     "leila-farahani"),
    ("Conservancy Pilots", "conservancy-pilots",
     "runs paid pilots with new conservancies before a full contract", "mateo-rossi"),
    ("Budget Forecast", "budget-forecast",
     "models cash runway, burn and hiring costs for the next eighteen months",
     "nadia-petrova"),
    ("Camera Grid", "camera-grid",
     "places camera traps on a grid and counts animals from the photos", "rosa-ibarra"),
    ("Field Handbook", "field-handbook",
     "is the printed and offline handbook that teaches rangers the apps", "tamsin-blake"),
    ("Village Outreach", "village-outreach",
     "shares patrol results with nearby villages and collects conflict reports",
     "wanjiru-kamau"),
    ("Warehouse Move", "warehouse-move",
     "moves device storage and repairs to a bigger warehouse in Nairobi", "aisha-diallo"),
    ("Brand Refresh", "brand-refresh",
     "replaces the logo, colours and website of the company", "camila-souza"),
    ("Drone Survey", "drone-survey",
     "counts elephants at night with thermal drones", "dario-bianchi"),
    ("Acoustic Sensors", "acoustic-sensors",
     "builds cheap microphones that run an audio classifier offline", "felix-wagner"),
    ("Grant Applications", "grant-applications",
     "tracks foundation grants, deadlines and reporting duties", "gabriela-nunez"),
    ("Mesh Radio", "mesh-radio",
     "links ranger posts with a LoRa mesh network where phones have no signal",
     "hamid-rahimi"),
    ("Hiring Pipeline", "hiring-pipeline",
     "tracks candidates, interviews and offers for open roles", "lorenzo-greco"),
)  # fmt: skip

# (title, slug tail, description)
CONCEPTS: tuple[tuple[str, str, str], ...] = (
    ("Vector Clocks", "vector-clocks",
     "order events across devices by keeping one counter per device"),
    ("Hybrid Logical Clocks", "hybrid-logical-clocks",
     "combine wall-clock time with a logical counter so timestamps stay monotonic"),
    ("Reciprocal Rank Fusion", "reciprocal-rank-fusion",
     "merges several ranked lists by summing one over k plus rank"),
    ("Retrieval-Augmented Generation (RAG)", "retrieval-augmented-generation",
     "lets a language model answer from retrieved documents instead of memory"),
    ("Geofencing", "geofencing",
     "raises an alert when a tracked animal crosses a virtual boundary"),
    ("Edge Caching", "edge-caching",
     "keeps map tiles on the phone so maps work without a network"),
    ("Delta Encoding", "delta-encoding",
     "sends only the changed bytes of a record to save bandwidth"),
    ("Differential Privacy", "differential-privacy",
     "adds calibrated noise so published counts never reveal one ranger"),
    ("Model Distillation", "model-distillation",
     "trains a small student model to mimic a large teacher model"),
    ("Quantization", "quantization",
     "stores neural network weights as 8-bit integers to shrink models"),
    ("Backpressure", "backpressure",
     "slows producers when consumers fall behind instead of dropping data"),
    ("Idempotency Keys", "idempotency-keys",
     "let a client retry an upload without creating duplicates"),
    ("Event Sourcing", "event-sourcing",
     "stores every change as an event and rebuilds state by replaying them"),
    ("Circuit Breaker", "circuit-breaker",
     "stops calling a failing service for a while so it can recover"),
    ("Zero Trust Networking", "zero-trust-networking",
     "authenticates every request instead of trusting the office network"),
    ("Least Privilege", "least-privilege",
     "gives every account only the permissions its job needs"),
    ("Home Range Estimation", "home-range-estimation",
     "estimates the area an animal uses from its GPS fixes"),
    ("Occupancy Modelling", "occupancy-modelling",
     "estimates how many sites a species uses while correcting for missed detections"),
    ("Active Learning", "active-learning",
     "asks humans to label only the photos the model is least sure about"),
    ("Low-Power Radio", "low-power-radio",
     "trades bandwidth for range and battery life in sensor networks"),
)  # fmt: skip

# (title, slug tail, body) — titles with ordinary words, the traps of a naive gate.
NOTES: tuple[tuple[str, str, str], ...] = (
    ("Hiring plan 2027", "hiring-plan-2027",
     "Open roles for 2027: two mobile engineers, a data engineer and a support lead."),
    ("Offsite trip plan", "offsite-trip-plan",
     "The team offsite goes to Naivasha in June; buses leave the Nairobi office at seven."),
    ("Marketing plan Q3", "marketing-plan-q3",
     "Three conference talks, a case study with Marula and a refreshed website."),
    ("Release plan for Beacon 3.0", "release-plan-beacon-3",
     "Beacon 3.0 ships the new capture screen after two weeks of field testing."),
    ("Capital allocation notes", "capital-allocation-notes",
     "How the seed money is split between salaries, devices and cloud costs."),
    ("Working capital review", "working-capital-review",
     "Receivables from conservancies take ninety days; suppliers want payment in thirty."),
    ("Security review 2026", "security-review-2026",
     "Findings from the external assessment: stale admin accounts and an open debug port."),
    ("Code review guidelines", "code-review-guidelines",
     "Every pull request needs one approval and passing offline tests."),
    ("Performance review cycle", "performance-review-cycle",
     "Reviews happen twice a year with peer feedback and a written self assessment."),
    ("Quarterly report Q1 2026", "quarterly-report-q1-2026",
     "Revenue grew, two conservancies signed, churn stayed at zero."),
    ("Quarterly report Q2 2026", "quarterly-report-q2-2026",
     "The Okavango pilot converted and device costs fell."),
    ("Annual report 2025", "annual-report-2025",
     "The first full year: one paying partner, nine employees and the seed round."),
    ("Product update May", "product-update-may",
     "Offline maps, faster sync and a new patrol summary screen."),
    ("Product update June", "product-update-june",
     "Poacher alerts beta and collar battery warnings."),
    ("Investor update April", "investor-update-april",
     "Monthly update to investors: runway, pipeline and key hires."),
    ("Investor update May", "investor-update-may",
     "Pilot conversions and the plan for the Series A."),
    ("Status update: Solar Collar", "status-update-solar-collar",
     "The second collar prototype survived a month on a rhino."),
    ("Meeting notes template", "meeting-notes-template",
     "Agenda, decisions, action items and owners."),
    ("Reading notes: Thinking in Systems", "reading-notes-thinking-in-systems",
     "Stocks, flows and feedback loops applied to patrol planning."),
    ("Reading notes: The Mom Test", "reading-notes-the-mom-test",
     "Ask rangers about their past behaviour, not about our ideas."),
    ("Book club notes", "book-club-notes",
     "The team reads one book a month; next is a history of the Serengeti."),
    ("Team party notes", "team-party-notes",
     "The end-of-year party is at the Lisbon office with a quiz and a barbecue."),
    ("Recipe notes for the team lunch", "recipe-notes-team-lunch",
     "Pilau for twelve, chapati and a mango salad for the Friday team lunch."),
    ("Travel notes: Okavango visit", "travel-notes-okavango-visit",
     "Flights via Johannesburg, two nights in Maun, then the pilot site."),
    ("Weekly planning notes", "weekly-planning-notes",
     "Monday planning: priorities, blockers and who is in the field."),
    ("Sprint planning checklist", "sprint-planning-checklist",
     "Estimate tickets, check field trips and leave room for support."),
    ("Onboarding notes for engineers", "onboarding-notes-engineers",
     "Laptop setup, access to the repositories and a first field visit."),
    ("Support playbook", "support-playbook",
     "How to answer ranger tickets and when to escalate to engineering."),
    ("Pricing notes", "pricing-notes",
     "Conservancies pay per ranger seat per month with a discount for charities."),
    ("Customer interview notes: Savanna Trust", "customer-interview-savanna-trust",
     "Their managers want weekly patrol summaries by email."),
    ("Board meeting summary March", "board-meeting-summary-march",
     "The board approved the hiring budget and asked for a pricing review."),
    ("Budget summary 2026", "budget-summary-2026",
     "Salaries are seventy percent of spend; devices and cloud share the rest."),
    ("Office move notes", "office-move-notes",
     "The Lisbon team moves to a larger office in Alfama in September."),
    ("Expense policy", "expense-policy",
     "Field trips are booked through the travel desk; receipts within a week."),
    ("Remote work policy", "remote-work-policy",
     "Engineers may work remotely three days a week."),
    ("Incident report: sync outage", "incident-report-sync-outage",
     "Sync was down for four hours after a certificate expired."),
    ("Incident report: collar battery drain", "incident-report-collar-battery",
     "A firmware bug kept the GPS awake and drained collars in two days."),
    ("Ideas list", "ideas-list",
     "Satellite messaging, a ranger leaderboard and a tourist app."),
    ("Competitor notes", "competitor-notes",
     "Two larger players sell radio systems but no offline apps."),
    ("Grant report for the Okavango foundation", "grant-report-okavango",
     "What the foundation money paid for and the animals protected."),
    ("Weekend hiking trip notes", "weekend-hiking-trip-notes",
     "A team hike up Mount Longonot; bring water and sun cream."),
    ("Holiday schedule 2026", "holiday-schedule-2026",
     "Public holidays in Kenya and Portugal and who covers support."),
    ("Roadmap 2026", "roadmap-2026",
     "Collars in the first half, acoustic alerts in the second half."),
    ("Architecture overview", "architecture-overview",
     "Phones sync to the API, the API writes to PostgreSQL, reports come from DuckDB."),
    ("API style guide", "api-style-guide",
     "Plural nouns, cursor pagination and RFC 3339 timestamps."),
    ("Glossary", "glossary",
     "Conservancy, sector, patrol, sighting and incident defined for new staff."),
    ("FAQ for rangers", "faq-rangers",
     "How to charge the phone, fix a stuck sync and report a lost device."),
    ("Launch checklist", "launch-checklist",
     "Store listing, support rota, rollback plan and a field test sign-off."),
    ("Retro notes: Beacon 2.4", "retro-notes-beacon-2-4",
     "The release slipped a week because of a store review delay."),
    ("Interview questions for mobile engineers", "interview-questions-mobile",
     "Offline data, flaky networks and battery use."),
)  # fmt: skip

MEETING_KINDS = (
    ("design review", "reviewed the design of {name}: {desc}."),
    ("status update", "status update on {name}; {owner} reported progress and blockers."),
    ("kickoff", "kickoff of {name}; {owner} agreed the scope and the first milestone."),
)

# (title, slug tail, body)
DECISIONS: tuple[tuple[str, str, str], ...] = (
    ("Decision: PostgreSQL for the reporting store", "postgres-reporting",
     "We keep PostgreSQL for reports because the team knows it and it runs everywhere."),
    ("Decision: LoRa instead of satellite for posts", "lora-over-satellite",
     "LoRa radios cost less per month than satellite messaging."),
    ("Decision: Kotlin for the Android app", "kotlin-android",
     "Kotlin replaced the cross-platform framework for better battery use."),
    ("Decision: Open-source the field handbook", "open-source-handbook",
     "The handbook is published under a Creative Commons licence."),
    ("Decision: Price per ranger seat", "price-per-seat",
     "Pricing is per ranger seat per month, not per device."),
    ("Decision: Host reports in Frankfurt", "host-in-frankfurt",
     "Reports are hosted in Frankfurt for European data protection."),
    ("Decision: Four-day field trips", "four-day-field-trips",
     "Field trips are capped at four days to limit travel fatigue."),
    ("Decision: Delete raw audio after 30 days", "delete-raw-audio",
     "Raw acoustic recordings are deleted after thirty days; detections are kept."),
    ("Decision: Single sign-on for conservancy staff", "single-sign-on",
     "Conservancy staff sign in with their own identity provider."),
    ("Decision: Weekly release train", "weekly-release-train",
     "Mobile builds ship every Tuesday unless a field test fails."),
)  # fmt: skip

GENERATED: tuple[tuple[str, str, str, str], ...] = (
    ("facts", "amara-nwosu-preferences", "Amara Nwosu Preferences",
     "Prefers paper sketches; dislikes long meetings."),
    ("facts", "greta-holm-preferences", "Greta Holm Preferences",
     "Wants cohort retention charts in updates."),
    ("facts", "budget-key-numbers", "Budget Key Numbers",
     "Runway 19 months; burn 95,000 euros a month."),
    ("facts", "collar-key-numbers", "Collar Key Numbers",
     "Battery life 14 months; weight 850 grams."),
    ("facts", "hiring-key-numbers", "Hiring Key Numbers", "Four open roles; two offers out."),
    ("digests", "weekly-2026-w20", "Weekly Digest 2026-W20",
     "Offsite trip planned; collar prototype field tested."),
    ("digests", "weekly-2026-w21", "Weekly Digest 2026-W21",
     "Security review findings fixed; investor update sent."),
    ("digests", "weekly-2026-w22", "Weekly Digest 2026-W22",
     "Marketing plan approved; drone survey counted elephants."),
    ("inbox", "call-with-greta", "Call with Greta", "Greta asked about the Series A plan."),
    ("inbox", "idea-tourist-app", "Idea: tourist app", "A paid app for safari tourists."),
    ("inbox", "note-from-field-trip", "Note from the field trip",
     "The capture screen froze twice in the rain."),
    ("inbox", "capital-call-reminder", "Capital call reminder",
     "Northwind capital call due next month."),
)  # fmt: skip

# (slug, type, title, body) — pages titled and written in other scripts and languages
# (Chinese, Japanese, Russian, German, Spanish, Arabic), and a one-word title that is an
# ordinary English word ("Replay"), the trap of a gate that reads every title as a name.
WORLD: tuple[tuple[str, str, str, str], ...] = (
    ("people/wang-fang", "person", "王芳",
     "王芳是内罗毕办公室的数据工程师，负责传感器数据管道和夜间备份。"),
    ("projects/huanjing-jiance", "project", "环境监测平台",
     "环境监测平台收集水源的水质和空气质量数据，每小时同步一次。"),
    ("concepts/yesheng-zoulang", "concept", "野生动物走廊",
     "野生动物走廊连接两个保护区，让大象安全迁徙。"),
    ("people/sato-yuki", "person", "佐藤由紀",
     "佐藤由紀は東京オフィスの営業担当で、日本の保護団体との契約を担当している。"),
    ("projects/kamera-torappu", "project", "カメラトラップ分析",
     "カメラトラップ分析は夜間の写真から動物の種類を自動で判定する。"),
    ("notes/tokyo-shutcho", "note", "東京出張メモ",
     "東京出張メモ：十一月に保護団体三社と会議、次回はデモを用意する。"),
    ("people/olga-smirnova", "person", "Ольга Смирнова",
     "Ольга Смирнова — инженер встроенных систем, отвечает за прошивку ошейников."),
    ("projects/severnyi-marshrut", "project", "Северный маршрут",
     "Северный маршрут — проект по отслеживанию миграции северных оленей в тундре."),
    ("people/jurgen-muller", "person", "Jürgen Müller",
     "Jürgen Müller ist Berater für Datenschutz und prüft alle Verträge mit Behörden."),
    ("projects/wasserstandsmonitor", "project", "Wasserstandsmonitor",
     "Der Wasserstandsmonitor misst die Pegel an Wasserlöchern und meldet Dürren."),
    ("notes/forderantrag-bayern", "note", "Förderantrag Bayern",
     "Der Förderantrag Bayern beantragt Mittel für zwanzig neue Funkhalsbänder."),
    ("people/lucia-fernandez", "person", "Lucía Fernández",
     "Lucía Fernández es la coordinadora de voluntarios en Chile y organiza los censos."),
    ("projects/proyecto-condor", "project", "Proyecto Cóndor",
     "El Proyecto Cóndor rastrea cóndores andinos con collares solares en la Patagonia."),
    ("notes/informe-patagonia", "note", "Informe de campo Patagonia",
     "El informe de campo describe tres semanas de conteo de guanacos en la Patagonia."),
    ("people/layla-hassan", "person", "ليلى حسن",
     "ليلى حسن مديرة الشراكات في مكتب القاهرة وتتابع اتفاقيات البيانات."),
    ("projects/mashrou-alwaha", "project", "مشروع الواحة",
     "مشروع الواحة يراقب مصادر المياه في الصحراء الغربية باستخدام أجهزة استشعار."),
    ("companies/replay", "company", "Replay",
     "Replay is a video analytics startup that pitched us a sports camera product."),
)  # fmt: skip

MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August")


def _name_of(tail: str) -> str:
    for first, last, *_ in PEOPLE:
        if f"{first}-{last}".lower() == tail:
            return f"{first} {last}"
    return tail.replace("-", " ").title()


def _page(kind: str, tags: str, title: str, body: str, extra: str = "") -> str:
    return f"---\ntype: {kind}\ntags: [{tags}]\n{extra}---\n# {title}\n\n{body}\n"


def _generated_pages() -> Iterator[tuple[str, str, str]]:
    for first, last, role, company, project, detail in PEOPLE:
        tail = f"{first}-{last}".lower()
        body = (
            f"{first} {last} is a {role} at [[companies/{company}]]. {first} works on "
            f"[[projects/{project}]] and {detail}."
        )
        yield "default", f"people/{tail}", _page("person", "people", f"{first} {last}", body)
    for name, tail, what, detail in COMPANIES:
        body = f"{name} is {what}. It {detail}. Partner of [[companies/kestrel-works]]."
        yield "default", f"companies/{tail}", _page("company", "partner", name, body)
    for name, tail, desc, owner in PROJECTS:
        body = f"{name} {desc}. Owner: [[people/{owner}]]."
        extra = "status: active\n"
        yield "default", f"projects/{tail}", _page("project", "project", name, body, extra)
    for title, tail, desc in CONCEPTS:
        short = title.split(" (")[0]
        body = f"{short} {desc}."
        yield "default", f"concepts/{tail}", _page("concept", "concept", title, body)
    for title, tail, body in DECISIONS:
        yield "default", f"decisions/{tail}", _page("decision", "architecture", title, body)
    for title, tail, body in NOTES:
        yield "default", f"notes/{tail}", _page("note", "notes", title, body)
    day = _BASE
    for index, (name, tail, desc, owner) in enumerate(PROJECTS):
        for kind, template in MEETING_KINDS:
            day += timedelta(days=1)
            stamp = day.strftime("%Y-%m-%d")
            title = f"{name} {kind} ({stamp})"
            body = template.format(name=f"[[projects/{tail}]]", desc=desc, owner=_name_of(owner))
            slug = f"meetings/{stamp}-{tail}-{kind.replace(' ', '-')}"
            extra = f"date: {stamp}\n"
            yield "default", slug, _page("meeting", "meeting", title, body.capitalize(), extra)
        if index < len(MONTHS):
            month = MONTHS[index]
            yield (
                "default",
                f"meetings/2026-{index + 1:02d}-28-monthly-planning",
                _page(
                    "meeting",
                    "meeting",
                    f"Monthly planning meeting, {month} 2026",
                    f"Planning for {month}: priorities across projects and field trips.",
                ),
            )
    for week in range(1, 41):
        yield (
            "default",
            f"notes/standup-notes-2026-w{week:02d}",
            _page(
                "note",
                "standup",
                f"Standup notes 2026-W{week:02d}",
                f"Week {week}: small updates from each team; nothing blocked for long.",
            ),
        )
    for slug, kind, title, body in WORLD:
        extra = f"title: {title}\n"
        yield "default", slug, _page(kind, "world", title, body, extra)
    for folder, tail, title, body in GENERATED:
        kind = {"facts": "fact", "digests": "digest", "inbox": "inbox"}[folder]
        extra = "generated: true\n"
        yield "default", f"{folder}/{tail}", _page(kind, "auto-generated", title, body, extra)


def pages() -> tuple[tuple[str, str, str], ...]:
    """Every page of the large brain: the sample brain's, then the generated ones."""
    return (*sample_brain.PAGES, *_generated_pages())


def seed(store: PageStore) -> int:
    """Write the large brain into ``store``; returns the page count."""
    store.add_source("default", "default")
    store.add_source(sample_brain.SECOND_SOURCE, "Work notes")
    everything = pages()
    for index, (source_id, slug, content) in enumerate(everything):
        stamp = iso_of(_BASE + timedelta(hours=3 * index))
        store.put_page(slug, content, source_id=source_id, now=stamp, created_at=stamp)
    return len(everything)
