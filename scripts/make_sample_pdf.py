"""Write the sample PDF that ships in pdf_files/source/ (a fictional company's annual report).

Run: .venv/bin/python scripts/make_sample_pdf.py [output.pdf]

Everything in it is invented for this project (no copyright); it has headings, a table and
numbers on known pages so the first chat has something concrete to cite, e.g.
"What was Northwind's revenue in 2023?" (page 2) or "How many employees?" (page 3).
The output is deterministic (no timestamps), so re-running it does not change the file.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pymupdf

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = ROOT / "pdf_files" / "source" / "northwind_annual_report_2023.pdf"

CSS = """
body { font-family: sans-serif; font-size: 10.5pt; line-height: 1.35; color: #222; }
h1 { font-size: 20pt; color: #123c69; margin-bottom: 4pt; }
h2 { font-size: 14pt; color: #123c69; margin-top: 10pt; margin-bottom: 4pt; }
p { margin-top: 0; margin-bottom: 6pt; }
table { border-collapse: collapse; width: 100%; margin-top: 4pt; }
th, td { border: 1px solid #999; padding: 3pt 5pt; font-size: 9.5pt; }
th { background-color: #e8eef5; text-align: left; }
td.num { text-align: right; }
"""

PAGES = [
    # Page 1
    """
<h1>Northwind Components Ltd. Annual Report 2023</h1>
<p><b>A fictional company, invented for the PDF chat sample.</b></p>
<h2>Letter from the Chief Executive</h2>
<p>2023 was the year Northwind Components turned its reliability programme into growth.
Revenue rose to 412.6 million euros, an increase of 9.8 percent over 2022, while the
operating margin improved from 11.2 percent to 12.9 percent. We shipped 18.4 million
precision bearings and 2.1 million motor control units from our plants in Tampere,
Brno and Porto.</p>
<p>Our largest customer segment remains industrial automation, which accounted for 46 percent
of revenue. Wind energy grew fastest: orders for pitch bearings doubled after we qualified
the NW-700 series with two turbine makers in the spring.</p>
<h2>Highlights</h2>
<p>Net profit reached 38.1 million euros. The board proposes a dividend of 1.35 euros per share,
up from 1.10 euros. Free cash flow was 29.7 million euros after capital expenditure of
31.4 million euros, most of it for the new heat-treatment line in Brno.</p>
""",
    # Page 2
    """
<h2>Financial Review</h2>
<p>The table below summarises the consolidated income statement. All figures are in millions
of euros unless stated otherwise.</p>
<table>
<tr><th>Item</th><th>2023</th><th>2022</th><th>Change</th></tr>
<tr><td>Revenue</td><td class="num">412.6</td><td class="num">375.8</td><td class="num">+9.8%</td></tr>
<tr><td>Cost of sales</td><td class="num">281.3</td><td class="num">262.1</td><td class="num">+7.3%</td></tr>
<tr><td>Gross profit</td><td class="num">131.3</td><td class="num">113.7</td><td class="num">+15.5%</td></tr>
<tr><td>Operating profit (EBIT)</td><td class="num">53.2</td><td class="num">42.1</td><td class="num">+26.4%</td></tr>
<tr><td>Net profit</td><td class="num">38.1</td><td class="num">30.4</td><td class="num">+25.3%</td></tr>
<tr><td>Earnings per share (euros)</td><td class="num">2.54</td><td class="num">2.03</td><td class="num">+25.1%</td></tr>
</table>
<h2>Revenue by Segment</h2>
<p>Industrial automation contributed 189.8 million euros, wind energy 97.0 million euros,
rail 71.4 million euros and other markets 54.4 million euros. Wind energy revenue grew by
31 percent, rail by 4 percent, while other markets declined by 2 percent.</p>
<h2>Balance Sheet</h2>
<p>Total assets were 506.9 million euros at year end. Net debt fell to 62.5 million euros,
which is 0.8 times EBITDA. The equity ratio improved to 54.2 percent.</p>
""",
    # Page 3
    """
<h2>People and Safety</h2>
<p>At the end of 2023 Northwind employed 2,340 people, of whom 1,020 worked in Finland,
870 in the Czech Republic and 450 in Portugal. Employee turnover was 6.1 percent.</p>
<p>The lost-time injury frequency rate fell to 2.4 per million hours worked, from 3.9 in 2022,
after the plant safety walks introduced in Porto were rolled out to all sites.</p>
<h2>Sustainability</h2>
<p>Scope 1 and 2 emissions decreased by 18 percent to 21,600 tonnes of CO2 equivalent.
Sixty-two percent of the electricity we used came from renewable sources. Our target is
net-zero scope 1 and 2 emissions by 2035.</p>
<h2>Risks</h2>
<p>The main risks are the price of bearing steel, which is about 35 percent of the cost of
sales, the concentration of wind energy orders in two customers, and the availability of
skilled heat-treatment technicians.</p>
""",
    # Page 4
    """
<h2>Outlook for 2024</h2>
<p>We expect revenue between 430 and 450 million euros and an operating margin of
12.5 to 13.5 percent. Capital expenditure is planned at about 35 million euros, including
the second phase of the Brno heat-treatment line and a pilot line for ceramic hybrid bearings.</p>
<h2>Board of Directors</h2>
<p>Chair: Helena Virtanen. Chief Executive Officer: Tomas Novak. Chief Financial Officer:
Ana Ferreira. The annual general meeting will be held in Tampere on 24 April 2024.</p>
<h2>Glossary</h2>
<p>EBIT: earnings before interest and taxes. EBITDA: EBIT before depreciation and amortisation.
Lost-time injury frequency rate: injuries causing at least one day of absence per million
hours worked.</p>
""",
]


def make_sample_pdf(out: Path = DEFAULT_OUT) -> Path:
    doc = pymupdf.open()
    for i, html in enumerate(PAGES, start=1):
        page = doc.new_page(width=595, height=842)  # A4 in points
        page.insert_htmlbox(pymupdf.Rect(56, 56, 539, 780), html, css=CSS)
        page.insert_text((56, 810), f"Northwind Components Ltd. - Annual Report 2023 - page {i}", fontsize=8)
    doc.set_metadata({"title": "Northwind Components Ltd. Annual Report 2023", "author": "PDF chat sample"})
    out.parent.mkdir(parents=True, exist_ok=True)
    doc.save(out, garbage=4, deflate=True, no_new_id=True)
    return out


if __name__ == "__main__":
    print(make_sample_pdf(Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_OUT))
