"""Schema linking on tables named the way people name them (issue 9), each on a real DuckDB
file through `Session.ask`, checked against hand-written SQL. The public corpus (eval/public)
measures the same on data nobody tuned for; these pin the behaviours one by one."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from zlens_jupyter.engine import TrustState
from zlens_jupyter.session import Session


@pytest.fixture(scope="module")
def zoo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Session, Path]:
    root = tmp_path_factory.mktemp("zoo")
    path = root / "zoo.duckdb"
    con = duckdb.connect(str(path))
    con.execute(
        """
        CREATE TABLE animals (name VARCHAR, Species VARCHAR, vore VARCHAR, weight_kg DOUBLE,
                              bodywt DOUBLE, sleep_total DOUBLE, sleep_rem DOUBLE,
                              year BIGINT, enclosure BIGINT);
        INSERT INTO animals VALUES
          ('Ada', 'Human', 'omni', 62.0, 62.0, 8.0, 1.9, 2001, 1),
          ('Bo', 'Human', 'omni', 80.5, 80.5, 7.0, 1.5, 2005, 1),
          ('Cy', 'Lion', 'carni', 190.0, 190.0, 13.5, 2.4, 1995, 2),
          ('Di', 'Cow', 'herbi', 600.0, 600.0, 4.0, 0.7, 1998, 3),
          ('Ed', 'Cow', 'herbi', 650.0, 650.0, 4.5, 0.8, 2010, 3);
        """
    )
    con.close()
    session = Session(path, root / "project")
    yield session, path
    session.close()


def truth(path: Path, sql: str) -> list[tuple[object, ...]]:
    con = duckdb.connect(str(path), read_only=True)
    try:
        return sorted(con.execute(sql).fetchall())
    finally:
        con.close()


def rows(run) -> list[tuple[object, ...]]:
    assert run.result is not None, (run.clarification, run.trust_reason)
    return sorted(tuple(r) for r in run.result["rows"])


@pytest.mark.parametrize(
    ("question", "sql"),
    [
        # a unit suffix is a unit: "weight" is weight_kg
        ("What is the average weight?", "SELECT ROUND(AVG(weight_kg), 2) FROM animals"),
        # words run together: bodywt is body weight
        ("What is the maximum body weight?", "SELECT MAX(bodywt) FROM animals"),
        # the same words in another order name the column
        ("What is the average total sleep?", "SELECT ROUND(AVG(sleep_total), 2) FROM animals"),
        ("Maximum REM sleep", "SELECT MAX(sleep_rem) FROM animals"),
        # a value in another word form, and a value stored as a short code
        ("How many humans are there?", "SELECT COUNT(*) FROM animals WHERE Species = 'Human'"),
        ("How many herbivores are there?", "SELECT COUNT(*) FROM animals WHERE vore = 'herbi'"),
        # an integer year column is the table's time: ranges and decades
        (
            "How many animals arrived between 1995 and 2001?",
            "SELECT COUNT(*) FROM animals WHERE year BETWEEN 1995 AND 2001",
        ),
        ("Total weight in the 1990s", "SELECT SUM(weight_kg) FROM animals WHERE year < 2000"),
        # a column's name and then its value
        ("Total weight in enclosure 3", "SELECT SUM(weight_kg) FROM animals WHERE enclosure = 3"),
        # any "-est" adjective ranks
        (
            "Which species has the heaviest average weight?",
            "SELECT Species, AVG(weight_kg) FROM animals GROUP BY 1 ORDER BY 2 DESC LIMIT 1",
        ),
        # compare A and B: a row for each
        (
            "Compare the average weight of lions and cows",
            "SELECT Species, ROUND(AVG(weight_kg), 2) FROM animals "
            "WHERE Species IN ('Lion', 'Cow') GROUP BY 1",
        ),
    ],
)
def test_real_world_names_reach_their_columns_and_values(zoo, question: str, sql: str) -> None:
    session, path = zoo
    run = session.ask(question)
    assert rows(run) == truth(path, sql), run.sql
    assert run.trust_state in (TrustState.GROUNDED, TrustState.REVIEW_REQUIRED)


def test_a_share_of_the_total_says_its_part(zoo) -> None:
    session, path = zoo
    run = session.ask("What percentage of the animals are herbivores?")
    expected = truth(
        path, "SELECT ROUND(100.0 * COUNT(*) FILTER (vore = 'herbi') / COUNT(*), 2) FROM animals"
    )
    assert rows(run) == expected
    assert "share where vore = herbi" in run.answer


def test_a_weight_answer_shows_its_unit(zoo) -> None:
    session, _ = zoo
    assert session.ask("What is the average weight?").answer.startswith("Average weight (kg) is")


def test_an_unknown_noun_read_as_the_rows_is_said_and_not_vouched_for(zoo) -> None:
    session, path = zoo
    run = session.ask("How many creatures are there?")
    assert rows(run) == truth(path, "SELECT COUNT(*) FROM animals")
    assert "each row of animals counted as one creature" in run.answer
    assert run.trust_state is TrustState.REVIEW_REQUIRED


@pytest.mark.parametrize(
    "question",
    [
        "What was the hottest year?",  # a calendar part is never the measure of a superlative
        "Who is the oldest animal?",  # a superlative that ranks nothing
        "revenue by species without cows",  # an exclusion is asked about, never inverted
        "How many animals arrived between 1995 and 2001 in the 1990s and 12?",  # a stray number
    ],
)
def test_what_cannot_be_read_is_asked_not_guessed(zoo, question: str) -> None:
    session, _ = zoo
    run = session.ask(question)
    assert run.trust_state not in (TrustState.GROUNDED, TrustState.CERTIFIED), run.answer


# --- Question shapes people use on their own tables (issue 9): ships, sensor readings and a
# table of monthly figures, three databases of one table each, written for these tests.


@pytest.fixture(scope="module")
def harbour(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Session, Path]]:
    root = tmp_path_factory.mktemp("harbour")
    tables = {
        "fleet": """
            CREATE TABLE vessels (name VARCHAR, masts BIGINT, length_m DOUBLE,
                                  speed_kn DOUBLE, home_port VARCHAR, year BIGINT,
                                  rig VARCHAR, wrecked VARCHAR, weight DOUBLE,
                                  hull_color VARCHAR, sail_color VARCHAR, ship_type VARCHAR);
            INSERT INTO vessels VALUES
              ('Cutty Sark', 3, 85.4, 17.5, 'London', 1869, 'FullRigged', 'no', 963,
               'black', 'white', 'clipper'),
              ('Thermopylae', 3, 64.8, 16.0, 'Aberdeen', 1868, 'FullRigged', 'yes', 948,
               'light', 'white', 'clipper'),
              ('Sea Witch', 3, 58.0, 18.0, 'New York', 1846, 'FullRigged', 'yes', 908,
               'black', 'red', 'clipper'),
              ('Pamir', 4, 114.5, 16.0, 'Hamburg', 1905, 'Barque', 'yes', 3020,
               'white', 'white', 'windjammer'),
              ('Bounty', 3, 27.7, 8.0, 'London', 1784, 'FullRigged', 'yes', 220,
               'light', 'white', 'transport'),
              ('Spray', 1, 11.2, 7.5, 'Boston', 1892, 'Sloop', 'no', 13, 'white', 'red', 'yawl');
        """,
        "sensors": """
            CREATE TABLE readings (name VARCHAR, taken_at TIMESTAMP, Wind DOUBLE, temp DOUBLE,
                                   rainfall_total DOUBLE, relhum DOUBLE);
            INSERT INTO readings VALUES
              ('north', '2024-01-01 00:00', 12.0, 3.5, 1.0, 80.0),
              ('north', '2024-01-01 06:00', 14.0, 4.0, 0.0, 75.0),
              ('south', '2024-01-01 00:00', 5.0, 9.0, 2.5, 60.0),
              ('south', '2024-01-01 06:00', 7.0, 9.5, 0.5, 65.0),
              ('east', '2024-01-01 00:00', 9.0, 6.0, 4.0, 70.0);
        """,
        "world": """
            CREATE TABLE stats (country VARCHAR, continent VARCHAR, year BIGINT,
                                lifeExp DOUBLE);
            CREATE TABLE codes (country VARCHAR, iso VARCHAR);
            INSERT INTO stats VALUES
              ('Chad', 'Africa', 2007, 48.0), ('Mali', 'Africa', 2007, 52.0),
              ('Niger', 'Africa', 2007, 49.5), ('Japan', 'Asia', 2007, 82.6),
              ('Chad', 'Africa', 2002, 47.0);
            INSERT INTO codes VALUES ('Chad', 'TCD'), ('Mali', 'MLI'), ('Niger', 'NER'),
              ('Japan', 'JPN'), ('Peru', 'PER'), ('Fiji', 'FJI');
        """,
        "garage": """
            CREATE TABLE autos (model VARCHAR, drive VARCHAR, tank DOUBLE, sales BIGINT,
                                volume DOUBLE);
            INSERT INTO autos VALUES
              ('Alto', 'FWD', 40.0, 10, 100.0), ('Ranger', '4WD', 70.0, 5, 200.0),
              ('Bronco', '4WD', 80.0, 3, 150.0), ('Coupe', 'RWD', 55.0, 8, 90.0);
        """,
        "station": """
            CREATE TABLE daily ("Solar.R" DOUBLE, Ozone DOUBLE, Temp BIGINT, Month BIGINT,
                                Day BIGINT);
            INSERT INTO daily VALUES (190, 41, 67, 5, 1), (118, 36, 88, 5, 2),
              (149, 12, 90, 6, 1), (313, 18, 72, 6, 2), (NULL, 28, 86, 6, 3);
        """,
        # a list of murders, one victim a row, with a date; a two-word table name of a place
        "murders": """
            CREATE TABLE london_murders (forename VARCHAR, age BIGINT, date DATE,
                                         borough VARCHAR);
            INSERT INTO london_murders SELECT 'Victim ' || i, 10 + (i * 7) % 60,
              DATE '2007-11-05' + INTERVAL (i * 23) DAY, ['Lambeth', 'Croydon', 'Hackney'][
              1 + i % 3] FROM range(60) t(i);
            INSERT INTO london_murders SELECT 'Extra ' || i, 30,
              DATE '2008-06-10' + INTERVAL (i) DAY, 'Lambeth' FROM range(5) t(i);
        """,
        # municipalities of several kinds, each named: "municipality" is a kind and a row
        "ontario": """
            CREATE TABLE places (name VARCHAR, csd_type VARCHAR, population BIGINT);
            INSERT INTO places SELECT 'Place ' || i, ['town', 'city', 'municipality',
              'township', 'village'][1 + i % 5], 1000 + i * 37 FROM range(40) t(i);
        """,
        # published and adjusted figures for each candidate, told apart by a prefix
        "pollsters": """
            CREATE TABLE polls (pollster VARCHAR, rawpoll_clinton DOUBLE,
                                adjpoll_clinton DOUBLE, rawpoll_trump DOUBLE,
                                adjpoll_trump DOUBLE);
            INSERT INTO polls VALUES ('A', 45, 44, 41, 43), ('B', 40, 42, 43, 42),
              ('C', 47, 46, 40, 41), ('D', 39, 41, 44, 43);
        """,
        # one pitch a row; which hand the batter hit with as a one-letter code
        "pitches": """
            CREATE TABLE Kershaw (PitchType VARCHAR, BatterHand VARCHAR, StartSpeed DOUBLE);
            INSERT INTO Kershaw SELECT ['FF', 'SL', 'CU'][1 + i % 3],
              CASE WHEN i % 4 = 0 THEN 'L' ELSE 'R' END, 85 + i % 9 FROM range(40) t(i);
        """,
        # one test a row, an id for each
        "swabs": """
            CREATE TABLE covid_testing (test_id VARCHAR, result VARCHAR, pan_day BIGINT);
            INSERT INTO covid_testing SELECT 'T' || i, CASE WHEN i % 5 = 0 THEN 'positive'
              ELSE 'negative' END, 4 + i % 30 FROM range(50) t(i);
        """,
        # two shops' new and used prices for each book
        "textbooks": """
            CREATE TABLE books (course VARCHAR, bookstore_new DOUBLE, bookstore_used DOUBLE,
                                amazon_new DOUBLE, amazon_used DOUBLE);
            INSERT INTO books VALUES ('MATH 1', 120, 90, 110, 60), ('CHEM 2', 80, 60, 75, 50),
              ('HIST 3', 40, 30, NULL, 20);
        """,
        # one student a row; weight in kg; race as text
        "racecohort": """
            CREATE TABLE students (grade VARCHAR, race VARCHAR, weight DOUBLE);
            INSERT INTO students SELECT ['9', '10', '11'][1 + i % 3], ['White', 'Asian',
              'Black or African American'][1 + i % 3], 50 + i % 7 + (i % 3) * 4 FROM range(30) t(i);
        """,
        "gems": """
            CREATE TABLE gems (carat DOUBLE, cut VARCHAR, price BIGINT);
            INSERT INTO gems VALUES (0.3, 'Ideal', 500), (2.1, 'Fair', 9000),
              (1.2, 'Ideal', 7000), (NULL, 'Good', 100), (0.9, 'Good', 2500);
        """,
        "dealer": """
            CREATE TABLE cars (Manufacturer VARCHAR, Model VARCHAR, Make VARCHAR,
                               Price DOUBLE, Weight BIGINT, DriveTrain VARCHAR, Origin VARCHAR);
            INSERT INTO cars VALUES ('Audi', '90', 'Audi 90', 29.1, 3050, 'Front', 'non-USA'),
              ('Audi', '100', 'Audi 100', 37.7, 3405, 'Front', 'non-USA'),
              ('Buick', 'Roadmaster', 'Buick Roadmaster', 23.7, 4105, 'Rear', 'USA'),
              ('Geo', 'Metro', 'Geo Metro', 8.4, 1695, 'Front', 'USA');
        """,
        "contest": """
            CREATE TABLE bakers (baker VARCHAR, series BIGINT, age BIGINT,
                                 technical_winner BIGINT, viewers_28day DOUBLE);
            INSERT INTO bakers VALUES ('Ann', 1, 30, 2, 2.3), ('Bo', 1, 52, 0, 2.7),
              ('Cy', 2, 35, 1, 3.9), ('Di', 2, 41, 3, 4.1);
        """,
        "counties": """
            CREATE TABLE counties (county VARCHAR, state VARCHAR, poptotal BIGINT);
            INSERT INTO counties VALUES ('ADAMS', 'OH', 27000), ('ALLEN', 'OH', 109000),
              ('OHIO', 'IN', 5600), ('ADAMS', 'IN', 34000), ('BROWN', 'OH', 42000);
        """,
        "voyage": """
            CREATE TABLE passengers (name VARCHAR, passengerClass VARCHAR, survived VARCHAR,
                                     age DOUBLE);
            INSERT INTO passengers VALUES ('Ann', '1st', 'yes', 30), ('Bob', '1st', 'no', 50),
              ('Cid', '2nd', 'yes', 20), ('Dee', '3rd', 'no', 25), ('Eve', '3rd', 'yes', 8);
        """,
        "gearbox": """
            CREATE TABLE cars (model VARCHAR, trans VARCHAR, hp BIGINT);
            INSERT INTO cars VALUES ('Merc 240D', 'auto(l4)', 62), ('Merc 280', 'manual(m5)', 123),
              ('Mercury Cougar', 'auto(l4)', 140), ('Toyota Corolla', 'manual(m5)', 65),
              ('Toyota Corona', 'manual(m6)', 97), ('Fiat 128', 'auto(av)', 66),
              ('Large Van', 'auto(l4)', 80);
        """,
        "polls": """
            CREATE TABLE brexit_polls (startdate DATE, enddate DATE, pollster VARCHAR,
                                       poll_type VARCHAR, remain DOUBLE, leave DOUBLE);
            INSERT INTO brexit_polls VALUES
              ('2016-05-28', '2016-06-01', 'YouGov', 'Online', 0.42, 0.44),
              ('2016-05-20', '2016-05-25', 'ICM', 'Telephone', 0.47, 0.41),
              ('2016-06-02', '2016-06-05', 'ORB', 'Telephone', 0.51, 0.43),
              ('2016-06-10', '2016-06-12', 'YouGov', 'Online', 0.40, 0.45),
              ('2016-04-29', '2016-05-02', 'Opinium', 'Online', 0.43, 0.42);
        """,
        "jobs": """
            CREATE TABLE Prestige (occupation VARCHAR, prestige DOUBLE, women DOUBLE,
                                   income BIGINT, type VARCHAR);
            INSERT INTO Prestige VALUES ('nurses', 64.7, 96.5, 4614, 'prof'),
              ('physicians', 87.2, 10.6, 25308, 'prof'), ('carpenters', 38.9, 0.6, 5299, 'bc'),
              ('bakers', 38.9, 7.8, 4199, 'bc'), ('typists', 41.9, 95.3, 3148, 'wc');
            CREATE TABLE results (state VARCHAR, electoral_votes BIGINT);
            INSERT INTO results VALUES ('Florida', 29), ('Ohio', 18), ('Maine', 4);
            CREATE TABLE murders (state VARCHAR, abb VARCHAR, population BIGINT);
            INSERT INTO murders SELECT 'State ' || i, 'S' || i, 1000 * i FROM range(60) t(i);
            INSERT INTO murders VALUES ('Texas', 'TX', 25145561), ('Ohio', 'OH', 11536504);
        """,
        "arrests": """
            CREATE TABLE Arrests (released VARCHAR, colour VARCHAR, age BIGINT,
                                  citizen VARCHAR, checks BIGINT);
            INSERT INTO Arrests VALUES ('Yes', 'White', 21, 'Yes', 0), ('No', 'Black', 30, 'No', 3),
              ('Yes', 'Black', 17, 'Yes', 1), ('Yes', 'White', 45, 'No', 2),
              ('No', 'White', 33, 'Yes', 4);
        """,
        "mini": """
            CREATE TABLE quakes (lat DOUBLE, long DOUBLE, depth BIGINT, mag DOUBLE,
                                 stations BIGINT);
            INSERT INTO quakes VALUES (-20.4, 182.0, 562, 4.8, 41), (-20.6, 181.0, 650, 4.2, 15),
              (-26.0, 184.1, 42, 5.4, 43), (-18.0, 181.7, 626, 5.1, 36);
            CREATE TABLE ChickWeight (weight BIGINT, Time BIGINT, Chick BIGINT, Diet BIGINT);
            INSERT INTO ChickWeight VALUES (42, 0, 1, 1), (51, 2, 1, 1), (40, 0, 2, 1),
              (49, 2, 2, 1), (43, 0, 3, 2);
            CREATE TABLE USArrests (state VARCHAR, Murder DOUBLE, Assault BIGINT);
            INSERT INTO USArrests VALUES ('Texas', 12.7, 201), ('Ohio', 7.3, 120),
              ('Maine', 2.1, 83);
        """,
        "crime": """
            CREATE TABLE murders (state VARCHAR, region VARCHAR, population BIGINT,
                                  total BIGINT);
            INSERT INTO murders VALUES ('Texas', 'South', 25145561, 805),
              ('Florida', 'South', 19687653, 669), ('Ohio', 'North Central', 11536504, 310),
              ('Maine', 'Northeast', 1328361, 11);
            CREATE TABLE counties (county VARCHAR, state VARCHAR, percollege DOUBLE,
                                   percadultpoverty DOUBLE, percelderlypoverty DOUBLE);
            INSERT INTO counties VALUES ('ADAMS', 'OH', 11.3, 4.2, 9.0),
              ('ALLEN', 'OH', 17.0, 5.9, 8.1), ('OHIO', 'IN', 9.4, 3.1, 7.7),
              ('BROWN', 'IN', 14.2, 4.0, 10.2);
            CREATE TABLE models (Make VARCHAR, AirBags VARCHAR, Price DOUBLE);
            INSERT INTO models VALUES ('Audi 90', 'Driver & Passenger', 29.1),
              ('Geo Metro', 'None', 8.4), ('Buick Century', 'Driver only', 15.7),
              ('Audi 100', 'Driver & Passenger', 37.7);
            CREATE TABLE mammals (name VARCHAR, "order" VARCHAR, sleep_total DOUBLE);
            INSERT INTO mammals VALUES ('Mouse', 'Rodentia', 12.5), ('Rat', 'Rodentia', 13.0),
              ('Lion', 'Carnivora', 13.5), ('Human', 'Primates', 8.0), ('Cow', 'Ruminantia', 4.0);
            CREATE TABLE vehicles (model VARCHAR, drv VARCHAR, hwy BIGINT);
            INSERT INTO vehicles VALUES ('a4', 'f', 29), ('a4 quattro', '4', 25),
              ('camry', 'f', 31), ('corvette', 'r', 26), ('tahoe', '4', 19);
            CREATE TABLE trades AS SELECT 'trade ' || i AS occupation,
              8 + (i * 7 % 60) / 10 AS education FROM range(60) t(i);
        """,
        "survey": """
            CREATE TABLE polls (pollster VARCHAR, samplesize BIGINT, remain DOUBLE,
                                leave DOUBLE);
            INSERT INTO polls VALUES ('YouGov', 1600, 0.42, 0.44), ('ICM', 2000, 0.47, 0.41),
              ('ORB', 800, 0.51, 0.43), ('YouGov', 3500, 0.40, 0.45),
              ('Opinium', 2000, 0.43, 0.42);
            CREATE TABLE "College" (college VARCHAR, Private VARCHAR, Apps BIGINT,
                                    Accept BIGINT, Outstate BIGINT, "Grad.Rate" BIGINT);
            INSERT INTO "College" VALUES ('Abilene', 'Yes', 1660, 1232, 7440, 60),
              ('Adelphi', 'Yes', 2186, 1924, 12280, 56), ('Auburn', 'No', 7548, 6791, 7260, 70),
              ('Berkeley', 'No', 19873, 8252, 12870, 90), ('Amherst', 'Yes', 4302, 992, 19760, 100);
        """,
        "census": """
            CREATE TABLE "Wage" (year BIGINT, age BIGINT, maritl VARCHAR, education VARCHAR,
                                 health_ins VARCHAR, wage DOUBLE);
            INSERT INTO "Wage" VALUES
              (2006, 18, '1. Never Married', '1. < HS Grad', '2. No', 75.04),
              (2004, 24, '1. Never Married', '4. College Grad', '2. No', 70.48),
              (2003, 45, '2. Married', '3. Some College', '1. Yes', 130.98),
              (2003, 43, '2. Married', '4. College Grad', '1. Yes', 154.69),
              (2005, 50, '4. Divorced', '2. HS Grad', '1. Yes', 75.04),
              (2008, 54, '2. Married', '4. College Grad', '1. Yes', 127.12),
              (2009, 44, '2. Married', '5. Advanced Degree', '1. Yes', 230.55);
        """,
        "plains": """
            CREATE TABLE midwest (PID BIGINT, county VARCHAR, state VARCHAR, poptotal BIGINT,
                                  Salary DOUBLE, popdensity DOUBLE);
            INSERT INTO midwest VALUES (1, 'ADAMS', 'OH', 27000, 410.0, 1200.5),
              (2, 'ALLEN', 'OH', 109000, NULL, 3400.0), (3, 'ADAMS', 'IN', 34000, 380.5, 900.0),
              (4, 'BROWN', 'IN', 15000, NULL, 450.25), (5, 'CLARK', 'OH', 150000, 512.0, 5100.0);
        """,
        "motors": """
            CREATE TABLE cars (model VARCHAR, mpg DOUBLE, cyl BIGINT);
            INSERT INTO cars VALUES ('Fiat 128', 32.4, 4), ('Honda Civic', 30.4, 4),
              ('Valiant', 18.1, 6), ('Camaro Z28', 13.3, 8);
        """,
        "rankings": """
            CREATE TABLE companies (name VARCHAR, category VARCHAR, country VARCHAR,
                                    sales DOUBLE);
            INSERT INTO companies VALUES ('Bank', 'Banking', 'Japan', 0.99),
              ('Citigroup', 'Banking', 'United States', 94.7),
              ('Rank Group', 'Hotels', 'United Kingdom', 2.1), ('Toyota', 'Cars', 'Japan', 135.8),
              ('Sony', 'Media', 'Japan', 66.9), ('Acme', 'Media', 'Germany', 1.0);
        """,
        "bookings": """
            CREATE TABLE hotel_rates (customer_type VARCHAR, country VARCHAR,
                                      avg_price_per_room DOUBLE, lead_time BIGINT);
            INSERT INTO hotel_rates VALUES ('transient', 'prt', 120.0, 10),
              ('contract', 'and', 80.0, 200), ('transient', 'gbr', 150.5, 35),
              ('group', 'are', 99.0, 5), ('contract', 'prt', 60.0, 400);
            CREATE TABLE breaches (Number BIGINT, State VARCHAR, Individuals_Affected BIGINT);
            INSERT INTO breaches VALUES (1, 'TX', 1000), (2, 'TX', 250000), (3, 'CA', 600),
              (4, 'CA', 120000), (5, 'NY', 700);
        """,
        "travel": """
            CREATE TABLE stays (guest VARCHAR, country VARCHAR, deposit VARCHAR,
                                nights BIGINT);
            INSERT INTO stays SELECT 'g' || i,
              ['prt', 'gbr', 'fra', 'esp', 'deu', 'irl', 'bel', 'nld', 'che', 'usa', 'bra',
               'ita'][1 + i % 12], CASE WHEN i % 3 = 0 THEN 'yes' ELSE 'no' END, 1 + i % 5
              FROM range(40) t(i);
        """,
        "ballpark": """
            CREATE TABLE Batters (player VARCHAR, Hits BIGINT, HmRun BIGINT, Errors BIGINT,
                                  League VARCHAR);
            INSERT INTO Batters VALUES ('Ann', 150, 31, 4, 'A'), ('Bo', 190, 12, 9, 'N'),
              ('Cy', 120, 25, 2, 'A'), ('Di', 80, 3, 14, 'N');
        """,
        "campus": """
            CREATE TABLE schools ("S.F.Ratio" DOUBLE, "Room.Board" BIGINT, Outstate BIGINT,
                                  name VARCHAR);
            INSERT INTO schools VALUES (12.5, 4000, 9000, 'Alpha'), (18.0, 5200, 16000, 'Beta'),
              (9.1, 6100, 21000, 'Gamma');
        """,
        "places": """
            CREATE TABLE places (county VARCHAR, state VARCHAR, poptotal BIGINT,
                                 popwhite BIGINT, percbelowpoverty DOUBLE,
                                 percadultpoverty DOUBLE, percelderlypoverty DOUBLE);
            INSERT INTO places VALUES ('COOK', 'IL', 5105067, 3204947, 14.2, 12.0, 11.5),
              ('WAYNE', 'MI', 2111687, 1212007, 20.1, 17.3, 14.0),
              ('ADAMS', 'IL', 66090, 63299, 13.1, 11.0, 12.9),
              ('ALGER', 'MI', 8972, 8440, 15.9, 13.5, 10.2),
              ('BROWN', 'OH', 34966, 34629, 12.0, 9.8, 16.1);
        """,
        "telecom": """
            CREATE TABLE accounts (state VARCHAR, churn VARCHAR, total_day_minutes DOUBLE,
                                   total_eve_minutes DOUBLE, total_day_charge DOUBLE);
            INSERT INTO accounts VALUES ('KS', 'no', 265.1, 197.4, 45.07),
              ('KS', 'yes', 320.0, 195.5, 54.4), ('OH', 'no', 161.6, 351.6, 27.47),
              ('OH', 'no', 299.4, 61.9, 50.9), ('OH', 'yes', 310.2, 148.3, 52.7),
              ('NJ', 'no', 243.4, 121.2, 41.38), ('NJ', 'no', 166.7, 148.3, 28.34),
              ('NJ', 'no', 218.2, 348.5, 37.09);
        """,
        "ledger": """
            CREATE TABLE firms (name VARCHAR, category VARCHAR, country VARCHAR,
                                profits DOUBLE, marketvalue DOUBLE);
            INSERT INTO firms VALUES ('Acme', 'Media', 'United States', -2.5, 10.0),
              ('Borg', 'Banking', 'Germany', 4.0, 55.0),
              ('Cyan', 'Media', 'Japan', -0.4, 8.5),
              ('Dyne', 'Banking', 'United States', 7.1, 90.0),
              ('Eon', 'Utilities', 'Germany', 1.2, 20.0),
              ('Fjord', 'Utilities', 'Japan', -1.1, 12.0);
        """,
        "demographics": """
            CREATE TABLE sowc (countries_and_areas VARCHAR, total_pop_2018 DOUBLE,
                               births_2018 DOUBLE, life_expectancy_1970 DOUBLE,
                               life_expectancy_2018 DOUBLE);
            INSERT INTO sowc VALUES ('Chad', 15478, 658, 41.2, 54.0),
              ('Japan', 127202, 955, 72.0, 84.5), ('Peru', 32552, 565, 53.5, 76.5),
              ('Niger', 22443, 1020, 36.0, 62.0), ('Fiji', 883, 18, 60.1, 67.3);
        """,
        "menu": """
            CREATE TABLE fastfood (restaurant VARCHAR, item VARCHAR, calories BIGINT);
            INSERT INTO fastfood SELECT ['Sonic', 'Subway', 'Arbys'][1 + i % 3],
              'Item ' || i, 200 + (i * 53) % 700 FROM range(30) t(i);
        """,
        "seasons": """
            CREATE TABLE mlb_teams (year BIGINT, league_id VARCHAR, team_name VARCHAR,
                                    homeruns BIGINT, earned_run_average DOUBLE,
                                    best_year BIGINT);
            INSERT INTO mlb_teams VALUES
              (2009, 'AL', 'Boston Red Sox', 212, 4.35, 2004),
              (2010, 'AL', 'Boston Red Sox', 211, 4.20, 2004),
              (2010, 'NL', 'Chicago Cubs', 149, 3.99, 2016),
              (2019, 'AL', 'Boston Red Sox', 245, 4.70, 2004),
              (2019, 'NL', 'Chicago Cubs', 256, 4.10, 2016),
              (2019, 'NL', 'Atlanta Braves', 249, 4.19, 1995);
        """,
        "homes": """
            CREATE TABLE houses (price BIGINT, fireplaces BIGINT, sewer VARCHAR,
                                 landValue BIGINT);
            INSERT INTO houses VALUES (132500, 1, 'septic', 50000), (181115, 0, 'septic', 22300),
              (109000, 1, 'public/commercial', 7300), (155000, 0, 'septic', 18700),
              (325000, 2, 'public/commercial', 51000), (410000, 1, 'septic', 90000),
              (89000, 0, 'none', 4000);
        """,
        "snacks": """
            CREATE TABLE menu (item VARCHAR, calories BIGINT, trans_fat DOUBLE);
            INSERT INTO menu VALUES ('Big Mac', 540, 1.0), ('Side Salad', 20, 0.0),
              ('Big Fish', 390, 0.0), ('Mac Bites', 300, 0.5);
        """,
        "showroom": """
            CREATE TABLE Cars93 (Model VARCHAR, Origin VARCHAR, "Man.trans.avail" VARCHAR,
                                 Horsepower BIGINT);
            INSERT INTO Cars93 VALUES ('Integra', 'non-USA', 'Yes', 140),
              ('Century', 'USA', 'No', 110), ('Camaro', 'USA', 'Yes', 160),
              ('Civic', 'non-USA', 'Yes', 102), ('Caprice', 'USA', 'No', 170);
        """,
        "tv": """
            CREATE TABLE ratings (series BIGINT, episode BIGINT, viewers_7day DOUBLE,
                                  viewers_28day DOUBLE);
            INSERT INTO ratings VALUES (1, 1, 2.24, 2.4), (1, 2, 3.0, 3.2), (2, 1, 3.1, 3.5),
              (2, 2, 3.6, 3.9);
        """,
        "ozone": """
            CREATE TABLE air (Ozone DOUBLE, Temp BIGINT, Month BIGINT, Day BIGINT);
            INSERT INTO air VALUES (41, 67, 5, 1), (36, 72, 5, 2), (NULL, 61, 6, 1),
              (135, 93, 7, 1), (89, 96, 8, 2), (110, 88, 8, 3);
        """,
        "posts": """
            CREATE TABLE mayor_tweets (source VARCHAR, text VARCHAR, created_at VARCHAR,
                                       retweet_count BIGINT);
            INSERT INTO mayor_tweets VALUES
              ('Twitter for Android', 'Good morning', '2015-12-31T23:10:00Z', 40),
              ('Twitter for iPhone', 'Vote today', '2016-03-01T08:00:00Z', 250),
              ('Twitter for iPhone', 'Thank you', '2016-11-09T07:30:00Z', 900),
              ('Data Desk', 'Budget figures', '2016-05-05T12:00:00Z', 12),
              ('Twitter for Android', 'Happy new year', '2017-01-01T00:05:00Z', 130);
        """,
        "faculty": """
            CREATE TABLE Salaries (rank VARCHAR, discipline VARCHAR, sex VARCHAR,
                                   salary BIGINT);
            INSERT INTO Salaries VALUES ('Prof', 'A', 'Male', 139750),
              ('Prof', 'B', 'Female', 173200), ('AsstProf', 'B', 'Male', 79750),
              ('AssocProf', 'A', 'Female', 91000), ('Prof', 'A', 'Male', 101000);
        """,
        "savings": """
            CREATE TABLE econ (date DATE, psavert DOUBLE);
            INSERT INTO econ VALUES ('1968-01-01', 12.0), ('1975-06-01', 14.0),
              ('1979-12-01', 11.0), ('1983-03-01', 10.0), ('1991-01-01', 7.0);
        """,
        "vehicles": """
            CREATE TABLE epa2021 (mfr_name VARCHAR, carline VARCHAR, hwy_mpg BIGINT,
                                  comb_mpg BIGINT, drive_sys VARCHAR, drive_desc VARCHAR);
            INSERT INTO epa2021 SELECT ['Honda', 'Toyota', 'BMW', 'Toyota'][1 + i % 4],
              'Model ' || i, 20 + i % 13, 18 + i % 11, ['F', 'A', 'R'][1 + i % 3],
              ['2-Wheel Drive, Front', 'All Wheel Drive', '2-Wheel Drive, Rear'][1 + i % 3]
              FROM range(40) t(i);
        """,
        "clinics": """
            CREATE TABLE covid_testing (test_id VARCHAR, clinic_name VARCHAR, result VARCHAR);
            INSERT INTO covid_testing SELECT ['covid', 'covid2'][1 + i % 2],
              'clinic ' || (i % 9) * (i % 4), 'negative' FROM range(80) t(i);
        """,
        "autos": """
            CREATE TABLE mpg (manufacturer VARCHAR, model VARCHAR, displ DOUBLE, year BIGINT,
                              cty BIGINT, hwy BIGINT, class VARCHAR);
            INSERT INTO mpg SELECT ['audi', 'toyota', 'ford', 'honda'][1 + i % 4],
              ['a4', 'corolla', 'f150', 'civic', 'camry'][1 + i % 5], 1.6 + (i % 9) * 0.4,
              [1999, 2008][1 + i % 2], 11 + (i * 7) % 19, 15 + (i * 5) % 23,
              ['compact', 'suv', 'pickup', 'midsize', 'suv'][1 + i % 5] FROM range(60) t(i);
        """,
        "sleepers": """
            CREATE TABLE msleep (name VARCHAR, "order" VARCHAR, bodywt DOUBLE);
            INSERT INTO msleep VALUES ('Cow', 'Artiodactyla', 600), ('Human', 'Primates', 62),
              ('Chimpanzee', 'Primates', 52.2), ('Owl monkey', 'Primates', 0.48),
              ('Mouse', 'Rodentia', 0.02), ('Giraffe', 'Artiodactyla', 900);
        """,
        "statepolls": """
            CREATE TABLE polls_us_election_2016 (state VARCHAR, pollster VARCHAR,
                                                 enddate DATE);
            INSERT INTO polls_us_election_2016 SELECT
              CASE WHEN i % 2 = 0 THEN 'U.S.' WHEN i % 3 = 0 THEN 'Florida' WHEN i % 5 = 0
                THEN 'Ohio' ELSE ['Iowa', 'Utah', 'Maine', 'Texas', 'Idaho', 'Nevada',
                'Oregon', 'Kansas', 'Alaska', 'Hawaii', 'Vermont', 'Georgia', 'Montana',
                'Arizona', 'Wyoming', 'Indiana', 'Alabama', 'Delaware', 'Colorado',
                'Missouri', 'Kentucky', 'Virginia', 'Illinois', 'Michigan', 'Nebraska',
                'Maryland', 'Oklahoma', 'Arkansas', 'Louisiana', 'Wisconsin', 'Minnesota',
                'New York', 'New Jersey', 'Tennessee', 'California', 'Washington',
                'Mississippi', 'Connecticut', 'New Mexico', 'South Dakota', 'North Dakota',
                'West Virginia', 'Pennsylvania', 'Rhode Island', 'Massachusetts',
                'New Hampshire', 'South Carolina', 'North Carolina'][1 + i % 48] END,
              'Pollster ' || i % 7, DATE '2016-01-01' + INTERVAL (i) DAY FROM range(400) t(i);
        """,
        "marathon": """
            CREATE TABLE boston_marathon (Event VARCHAR, Year BIGINT, Champion VARCHAR,
                                          Country VARCHAR);
            INSERT INTO boston_marathon VALUES
              ('Men''s open division', 1911, 'Clarence H. DeMar', 'United States'),
              ('Men''s open division', 1922, 'Clarence H. DeMar', 'United States'),
              ('Men''s open division', 1923, 'Clarence H. DeMar', 'United States'),
              ('Men''s open division', 1975, 'Bill Rodgers', 'United States'),
              ('Men''s open division', 1988, 'Ibrahim Hussein', 'Kenya'),
              ('Women''s open division', 1972, 'Nina Kuscsik', 'United States'),
              ('Women''s open division', 1973, 'Jacqueline Hansen', 'United States'),
              ('Women''s open division', 1979, 'Joan Benoit', 'United States');
        """,
        "scores": """
            CREATE TABLE MathAchieve (School BIGINT, Sex VARCHAR, MathAch DOUBLE);
            INSERT INTO MathAchieve SELECT 1000 + i % 6, ['Male', 'Female'][1 + i % 2],
              (i * 7) % 25 FROM range(60) t(i);
            CREATE TABLE MathAchSchool (School BIGINT, Size BIGINT, Sector VARCHAR);
            INSERT INTO MathAchSchool SELECT 1000 + i, 500 + i * 100,
              ['Public', 'Catholic'][1 + i % 2] FROM range(6) t(i);
        """,
        "characters": """
            CREATE TABLE starwars (name VARCHAR, height DOUBLE, mass DOUBLE);
            INSERT INTO starwars VALUES ('Luke Skywalker', 172, 77), ('Yoda', 66, 17),
              ('Chewbacca', 228, 112), ('Leia Organa', 150, 49), ('R2-D2', 96, 32);
        """,
        "sightings": """
            CREATE TABLE storms (name VARCHAR, year BIGINT, month BIGINT, day BIGINT,
                                 hour BIGINT, status VARCHAR, wind BIGINT);
            INSERT INTO storms SELECT ['Amy', 'Bob', 'Cleo', 'Dora'][1 + i % 4], 2005,
              8, 1 + i // 8, (i % 4) * 6,
              CASE WHEN i % 4 < 2 AND i % 3 = 0 THEN 'hurricane' ELSE 'tropical storm' END,
              40 + i FROM range(48) t(i);
        """,
        "towns": """
            CREATE TABLE towny (name VARCHAR, status VARCHAR, csd_type VARCHAR,
                                population_2021 BIGINT);
            INSERT INTO towny VALUES ('Ajax', 'lower-tier', 'town', 126666),
              ('Barrie', 'single-tier', 'city', 147829),
              ('Brock', 'lower-tier', 'township', 12567),
              ('Merrickville', 'lower-tier', 'village', 3135),
              ('Chatham-Kent', 'single-tier', 'municipality', 103988),
              ('Dysart', 'lower-tier', 'municipality', 7330),
              ('Ottawa', 'single-tier', 'city', 1017449);
        """,
        "parks": """
            CREATE TABLE teams (year BIGINT, team_name VARCHAR, ball_park VARCHAR, wins BIGINT);
            INSERT INTO teams SELECT 2000 + y, t.name,
              t.park || CASE WHEN y < 5 THEN '' ELSE ' II' END, 60 + y
              FROM range(10) r(y), (VALUES ('Boston Red Sox', 'Fenway Park'),
              ('Chicago Cubs', 'Wrigley Field'), ('Atlanta Braves', 'Turner Field'),
              ('Detroit Tigers', 'Comerica Park'), ('Texas Rangers', 'Globe Life Park'))
              t(name, park);
        """,
        "incidents": """
            CREATE TABLE breaches (State VARCHAR, year BIGINT, breach_start DATE,
                                   posted DATE);
            INSERT INTO breaches VALUES ('TX', 2010, '2010-03-01', '2014-02-01'),
              ('CA', 2010, '2010-07-09', '2014-03-01'), ('TX', 2013, '2013-01-05', '2014-02-11'),
              ('NY', 2012, '2012-11-30', '2014-05-01');
        """,
        "outbreaks": """
            CREATE TABLE us_contagious_diseases (disease VARCHAR, state VARCHAR, year BIGINT,
                                                 count BIGINT, population BIGINT);
            INSERT INTO us_contagious_diseases VALUES
              ('Measles', 'California', 1960, 40000, 15000000),
              ('Measles', 'Texas', 1960, 25000, 9500000),
              ('Measles', 'California', 1961, 35000, 15500000),
              ('Polio', 'California', 1960, 900, 15000000),
              ('Polio', 'Texas', 1961, 400, 9600000);
        """,
        "labour": """
            CREATE TABLE labour (date DATE, unemploy BIGINT);
            INSERT INTO labour VALUES ('2009-01-01', 12058), ('2009-02-01', 12898),
              ('2000-01-01', 5652), ('2007-01-01', 7116);
        """,
        # each processor one named row, with a release date; `process` is the node size
        "chips": """
            CREATE TABLE chips (name VARCHAR, cores BIGINT, base_clock DOUBLE, process BIGINT,
                                released DATE);
            INSERT INTO chips SELECT 'Chip ' || i, 2 + (i % 8), 2.0 + (i % 13) / 10.0,
              CASE WHEN i % 3 = 0 THEN 7 ELSE 14 END, DATE '2010-01-01' + INTERVAL (i * 9) DAY
              FROM range(40) t(i);
        """,
        # a yes/no column named by the verb its doers are named by ("smokers" for `smoke`)
        "habits": """
            CREATE TABLE smoking (gender VARCHAR, age BIGINT, region VARCHAR, smoke VARCHAR);
            INSERT INTO smoking SELECT CASE WHEN i % 2 = 0 THEN 'Male' ELSE 'Female' END,
              18 + (i * 7) % 60, CASE WHEN i % 3 = 0 THEN 'North' ELSE 'South' END,
              CASE WHEN i % 5 IN (0, 1) THEN 'Yes' ELSE 'No' END FROM range(60) t(i);
        """,
        # matches by the year their season began, no date column
        "league": """
            CREATE TABLE matches (HomeTeam VARCHAR, AwayTeam VARCHAR, HomeGoals BIGINT,
                                  Year BIGINT);
            INSERT INTO matches SELECT 'Team ' || (i % 6), 'Team ' || ((i + 1) % 6), i % 4,
              1989 + (i % 4) FROM range(30) t(i);
        """,
        # who voted for which party: the verb names the column of the party said
        "ballots": """
            CREATE TABLE ballots (vote VARCHAR, gender VARCHAR, age BIGINT, Blair BIGINT);
            INSERT INTO ballots SELECT
              CASE i % 3 WHEN 0 THEN 'Labour' WHEN 1 THEN 'Conservative'
                ELSE 'Liberal Democrat' END,
              CASE WHEN i % 4 < 2 THEN 'female' ELSE 'male' END, 20 + i, 1 + (i * 7) % 5
              FROM range(30) t(i);
        """,
        # a day per city and row, a date beside its own year/month/day numbers; `events`
        # lists several values in one field
        "skies": """
            CREATE TABLE Weather (city VARCHAR, date DATE, year BIGINT, month BIGINT,
                                  day BIGINT, avg_temp BIGINT, events VARCHAR);
            INSERT INTO Weather SELECT CASE WHEN i % 2 = 0 THEN 'Chicago' ELSE 'Mumbai' END,
              DATE '2016-12-20' + INTERVAL (i // 2) DAY,
              year(DATE '2016-12-20' + INTERVAL (i // 2) DAY),
              month(DATE '2016-12-20' + INTERVAL (i // 2) DAY),
              day(DATE '2016-12-20' + INTERVAL (i // 2) DAY), 30 + (i * 7) % 50,
              CASE i % 5 WHEN 0 THEN 'Rain' WHEN 1 THEN 'Rain , Thunderstorm'
                WHEN 2 THEN 'Thunderstorm' WHEN 3 THEN 'Fog , Snow' END
              FROM range(40) t(i);
        """,
        # one employee a row, numbered (`EmployeeNumber` names them, it counts nothing)
        "staff": """
            CREATE TABLE attrition (EmployeeNumber BIGINT, Age BIGINT, Department VARCHAR,
                                    OverTime VARCHAR, Attrition VARCHAR);
            INSERT INTO attrition SELECT 1000 + i, 22 + (i * 5) % 40,
              CASE WHEN i % 3 = 0 THEN 'Sales' ELSE 'Research' END,
              CASE WHEN i % 4 = 0 THEN 'Yes' ELSE 'No' END,
              CASE WHEN i % 6 = 0 THEN 'Yes' ELSE 'No' END FROM range(48) t(i);
        """,
        # one-letter codes, said as the words they are the initials of ("East" for E)
        "divisions": """
            CREATE TABLE players (player VARCHAR, Division VARCHAR, League VARCHAR,
                                  Salary DOUBLE);
            INSERT INTO players SELECT 'Player ' || i, CASE WHEN i % 2 = 0 THEN 'E' ELSE 'W' END,
              CASE WHEN i % 3 = 0 THEN 'A' ELSE 'N' END, 100 + (i * 37) % 900
              FROM range(30) t(i);
        """,
        # each candidate's share of the vote, in percent, in a column named for them
        "election": """
            CREATE TABLE results (state VARCHAR, region VARCHAR, clinton DOUBLE, trump DOUBLE,
                                  others DOUBLE);
            INSERT INTO results SELECT 'State ' || i, CASE WHEN i % 2 = 0 THEN 'South'
              ELSE 'West' END, 30 + (i * 7) % 35, 25 + (i * 11) % 45, 5.0 FROM range(20) t(i);
        """,
        # an abbreviated name (`displ`) reached by its word and by a curated synonym
        "engines": """
            CREATE TABLE mpg (model VARCHAR, displ DOUBLE, year BIGINT);
            INSERT INTO mpg VALUES ('a4', 1.8, 1999), ('a4', 2.0, 2008), ('camry', 2.2, 1999),
              ('camry', 3.5, 2008), ('civic', 1.6, 1999), ('civic', 1.8, 2008);
        """,
        # a body's weight and a part's: said of the animals, the weight is the body's
        "mammals": """
            CREATE TABLE msleep (name VARCHAR, brainwt DOUBLE, bodywt DOUBLE);
            INSERT INTO msleep VALUES ('Cow', 0.423, 600), ('Elephant', 5.712, 6654),
              ('Mouse', 0.0004, 0.02), ('Horse', 0.655, 521), ('Human', 1.32, 62),
              ('Whale', 6.8, 4000);
        """,
        # seasons kept as codes, a prefix and a number ('S01' … 'S12')
        "queens": """
            CREATE TABLE contestants (season VARCHAR, contestant VARCHAR, age BIGINT);
            INSERT INTO contestants SELECT 'S' || lpad(CAST(1 + i % 12 AS VARCHAR), 2, '0'),
              'Queen ' || i, 21 + (i * 13) % 20 FROM range(60) t(i);
        """,
        # one award a row, said by the winner's name
        "awards": """
            CREATE TABLE oscars (name VARCHAR, award VARCHAR, age BIGINT);
            INSERT INTO oscars VALUES ('Ann', 'Best actress', 24), ('Bob', 'Best actor', 51),
              ('Cid', 'Best actor', 37), ('Dee', 'Best actress', 61), ('Eve', 'Best actress', 33),
              ('Fox', 'Best actor', 44);
        """,
        # titles kept as Y/N columns named after them, said as "won the World Series"
        "titles": """
            CREATE TABLE teams (year BIGINT, team_name VARCHAR, world_series_winner VARCHAR,
                                division_winner VARCHAR, wins BIGINT);
            INSERT INTO teams SELECT 1990 + i, ['New York Yankees', 'Atlanta Braves',
              'Boston Red Sox', 'Chicago Cubs'][1 + i % 4],
              CASE WHEN i % 4 = 0 OR i % 8 = 1 OR i = 6 THEN 'Y' ELSE 'N' END,
              CASE WHEN i % 2 = 1 THEN 'Y' ELSE 'N' END, 80 + i FROM range(24) t(i);
        """,
        # a 0/1 title column, the rows named by a column called as the table's one row
        "bakers": """
            CREATE TABLE bakers (series BIGINT, baker VARCHAR, series_winner BIGINT, age BIGINT);
            INSERT INTO bakers VALUES (1, 'Edd', 1, 31), (1, 'Ruth', 0, 30), (2, 'Jo', 1, 41),
              (2, 'Holly', 0, 31), (3, 'John', 1, 23), (3, 'James', 0, 21);
        """,
        # a table named for a prize: each row is a win, and no column says so
        "prizes": """
            CREATE TABLE nobel_prizes (laureate_name VARCHAR, category VARCHAR, year BIGINT);
            INSERT INTO nobel_prizes VALUES ('Marie Curie', 'Physics', 1903),
              ('Marie Curie', 'Chemistry', 1911), ('Linus Pauling', 'Chemistry', 1954),
              ('Niels Bohr', 'Physics', 1922);
        """,
        # a menu's shorthand: "w/" is "with"
        "burgers": """
            CREATE TABLE fastfood (item VARCHAR, sodium BIGINT);
            INSERT INTO fastfood VALUES ('WHOPPER w/ Cheese', 1450), ('WHOPPER', 980),
              ('Big Mac', 1010);
        """,
        # free-text media: a word that begins some values is said inside others too
        "artworks": """
            CREATE TABLE works (artist VARCHAR, title VARCHAR, medium VARCHAR, year BIGINT);
            INSERT INTO works SELECT
              ['Hirst, Damien', 'Emin, Tracey', 'Whiteread, Rachel'][1 + i % 3], 'Work ' || i,
              ['Screenprint on paper', 'Etching and screenprint on paper', 'Oil paint on canvas',
               'Made object, wood'][1 + i % 4], 1990 + i % 20 FROM range(40) t(i);
        """,
        # a table named for what its rows are, after a place; a code equal to one of its words;
        # one value stored bare and padded
        "force": """
            CREATE TABLE mn_police_use_of_force (id BIGINT, neighborhood VARCHAR,
                                                 primary_offense VARCHAR,
                                                 type_resistance VARCHAR, age BIGINT);
            INSERT INTO mn_police_use_of_force SELECT i,
              ['Downtown', 'Hawthorne', 'Phillips'][1 + i % 3],
              CASE WHEN i % 5 = 0 THEN 'FORCE' ELSE 'ASLT' END,
              CASE WHEN i % 4 = 0 THEN 'Fled on Foot' WHEN i % 4 = 1 THEN 'Fled on Foot   '
                   ELSE 'Tensed' END, 18 + i FROM range(30) t(i);
        """,
        # course titles nearly one per row beside a yes/no column for the kind
        "courses": """
            CREATE TABLE fall_list (subject VARCHAR, course VARCHAR, ind_study BOOLEAN);
            INSERT INTO fall_list SELECT ['Law', 'Mathematics', 'Law'][1 + i % 3],
              CASE WHEN i % 10 = 0 THEN 'Independent Study' ELSE 'Course ' || i END,
              i % 5 = 0 FROM range(60) t(i);
            CREATE TABLE textbooks (subject VARCHAR, course VARCHAR, price DOUBLE);
            INSERT INTO textbooks VALUES ('Law', 'Course 1', 20.0);
        """,
        # aviation shorthand (`phase_of_flt`), an operator named FLIGHT…, a species WILD…
        "strikes": """
            CREATE TABLE birds (operator VARCHAR, phase_of_flt VARCHAR, species VARCHAR,
                                height BIGINT);
            INSERT INTO birds SELECT ['AMERICAN AIRLINES', 'FLIGHT OPTIONS', 'DELTA AIR LINES',
              'AMERICAN AIRLINES'][1 + i % 4], ['Climb', 'Approach', 'Landing Roll'][1 + i % 3],
              ['CANADA GOOSE', 'WILD TURKEY', 'GULLS'][1 + i % 3], (i * 37) % 900
              FROM range(40) t(i);
        """,
        # dates kept as text, written one way ('9/30/1990 0:00:00'), in an event log
        "textdates": """
            CREATE TABLE strikes (operator VARCHAR, date VARCHAR, height BIGINT);
            INSERT INTO strikes SELECT ['DELTA', 'UNITED'][1 + i % 2],
              strftime(DATE '1993-01-01' + INTERVAL (i * 23) DAY, '%-m/%-d/%Y') || ' 0:00:00',
              (i * 37) % 900 FROM range(120) t(i);
            CREATE TABLE months (issue_month VARCHAR, amount BIGINT);
            INSERT INTO months VALUES ('Jan-2018', 10), ('Feb-2018', 20), ('Jan-2018', 5),
              ('Mar-2018', 7);
        """,
        # a city's pet licences: a place-prefixed table name, a key and a date of the licence,
        # one breed in two spellings, names in two cases, pets with no name
        "pets": """
            CREATE TABLE seattlepets (license_issue_date DATE, license_number VARCHAR,
              animal_name VARCHAR, species VARCHAR, primary_breed VARCHAR, zip_code VARCHAR);
            INSERT INTO seattlepets SELECT DATE '2016-01-01' + INTERVAL (i * 3) DAY,
              'L' || i, CASE WHEN i % 9 = 0 THEN NULL
                ELSE ['Luna', 'Max', 'Lucy', 'Bella', 'Milo'][1 + (i * 7) % 5] END,
              CASE WHEN i % 3 = 0 THEN 'Cat' ELSE 'Dog' END, 'Mixed',
              ['98115', '98103', '98115-4820'][1 + i % 3] FROM range(300) t(i);
            INSERT INTO seattlepets VALUES
              ('2017-05-01', 'P1', 'Babe', 'Pig', 'Pot-Bellied', '98103'),
              ('2017-06-01', 'P2', 'Wilbur', 'Pig', 'Pot Bellied', '98103'),
              ('2017-07-01', 'P3', NULL, 'Pig', 'Kunekune', '98115'),
              ('2018-02-01', 'G1', 'Billy', 'Goat', 'Nubian', '98115');
        """,
        # a stock index, one row a trading day
        "stocks": """
            CREATE TABLE sp500 (date DATE, open DOUBLE, close DOUBLE, volume BIGINT);
            INSERT INTO sp500 SELECT DATE '2008-01-01' + INTERVAL (i) DAY,
              1000 + (i * 37) % 500, 1000 + (i * 53) % 500, 1000000 + (i * 7919) % 100000
              FROM range(1200) t(i);
        """,
        # one row per state and year
        "roads": """
            CREATE TABLE Fatalities (state VARCHAR, year BIGINT, beertax DOUBLE, fatal BIGINT);
            INSERT INTO Fatalities SELECT ['al', 'az', 'ny', 'ca'][1 + i % 4], 1982 + i // 4,
              0.1 + (i * 13) % 17 / 10.0, 500 + (i * 31) % 400 FROM range(28) t(i);
        """,
        # creatures with stored 'none', IUCN codes and a part's weight (`brainwt`)
        "creatures": """
            CREATE TABLE characters (name VARCHAR, hair_color VARCHAR, conservation VARCHAR,
              brainwt DOUBLE, bodywt DOUBLE);
            INSERT INTO characters VALUES ('Ann', 'none', 'lc', 0.5, 60),
              ('Bo', 'brown', 'en', 1.2, 80), ('Cy', 'none', 'en', 0.9, 700),
              ('Di', 'blond', 'vu', 0.3, 20), ('Ed', 'brown', 'lc', 0.7, 90);
        """,
        # WHO's country names, and a table named as its one figure
        "who": """
            CREATE TABLE population (country VARCHAR, year BIGINT, population BIGINT);
            INSERT INTO population SELECT
              ['United States of America', 'Viet Nam', 'Iran (Islamic Republic of)',
               'Nigeria'][1 + i % 4], 1995 + i // 4, 1000000 * (1 + i) FROM range(40) t(i);
            CREATE TABLE weather (city VARCHAR, month BIGINT, precip VARCHAR, temp BIGINT);
            INSERT INTO weather SELECT ['Mumbai', 'Delhi'][1 + i % 2], 1 + i % 12,
              ['0.1', 'T', '2.5'][1 + i % 3], 20 + i % 9 FROM range(48) t(i);
        """,
        # taxi trips with a catch-all company bin; a survey of students
        "cabs": """
            CREATE TABLE taxi (tip VARCHAR, distance DOUBLE, company VARCHAR, dow VARCHAR,
              month VARCHAR, hour BIGINT);
            INSERT INTO taxi SELECT CASE WHEN i % 3 = 0 THEN 'no' ELSE 'yes' END, i % 25,
              CASE WHEN i % 2 = 0 THEN 'other' WHEN i % 5 = 1 THEN 'Flash Cab'
                ELSE 'Sun Taxi' END, ['Sat', 'Sun', 'Mon', 'Tue'][1 + i % 4],
              ['Jan', 'Feb', 'Mar'][1 + i % 3], i % 24 FROM range(200) t(i);
        """,
        "teens": """
            CREATE TABLE yrbss (gender VARCHAR, height DOUBLE, age BIGINT);
            INSERT INTO yrbss SELECT CASE WHEN i % 2 = 0 THEN 'female' ELSE 'male' END,
              1.5 + (i % 7) / 20.0, 14 + i % 4 FROM range(60) t(i);
        """,
        # race finishers: times in seconds with no unit in their names
        "race": """
            CREATE TABLE TenMileRace (state VARCHAR, time BIGINT, net BIGINT, sex VARCHAR);
            INSERT INTO TenMileRace SELECT ['VA', 'DC', 'MD'][1 + i % 3], 3000 + i * 7,
              2990 + i * 7, CASE WHEN i % 2 = 0 THEN 'F' ELSE 'M' END FROM range(90) t(i);
        """,
        # restaurant inspections by year
        "inspections": """
            CREATE TABLE restaurant_inspections (business_name VARCHAR, inspection_score BIGINT,
              Year BIGINT);
            INSERT INTO restaurant_inspections SELECT ['SUBWAY', 'TACO KING', 'PIZZA PALACE'][
              1 + i % 3], 80 + (i * 7) % 21, 2005 + (i % 4) * 5 FROM range(120) t(i);
        """,
        # FRED's series codes as column names, one row a month
        "fred": """
            CREATE TABLE economics (date DATE, pce DOUBLE, psavert DOUBLE, uempmed DOUBLE,
              unemploy BIGINT);
            INSERT INTO economics SELECT DATE '1990-01-01' + INTERVAL (i) MONTH,
              4000 + i * 13.5, 5 + ((i * 7) % 40) / 10.0 + i / 1000.0, 6 + (i % 11) * 0.7,
              7000 + (i * 131) % 900 FROM range(60) t(i);
        """,
        # a column named as a key that holds two test codes over many rows
        "labtests": """
            CREATE TABLE covid_testing (test_id VARCHAR, payor_group VARCHAR, result VARCHAR);
            INSERT INTO covid_testing SELECT ['covid', 'covid2'][1 + i % 2],
              ['government', 'commercial', 'self pay'][1 + i % 3],
              CASE WHEN i % 7 = 0 THEN 'positive' ELSE 'negative' END FROM range(42) t(i);
        """,
        # a survey of developers with one 0/1 column per kind of developer
        "devsurvey": """
            CREATE TABLE survey (Country VARCHAR, Salary DOUBLE, Web_developer BIGINT,
                                 Mobile_developer BIGINT, Embedded_developer BIGINT);
            INSERT INTO survey SELECT ['Germany', 'India', 'Canada'][1 + i % 3],
              40000 + (i * 1700) % 50000, i % 2, (i + 1) % 2, CASE WHEN i % 5 = 0 THEN 1
              ELSE 0 END FROM range(30) t(i);
        """,
        # a day's high, average and low
        "thermo": """
            CREATE TABLE days (city VARCHAR, high_temp BIGINT, avg_temp BIGINT, low_temp BIGINT);
            INSERT INTO days SELECT CASE WHEN i % 2 = 0 THEN 'Mumbai' ELSE 'Oslo' END,
              60 + (i * 7) % 40, 50 + (i * 7) % 30, 40 + (i * 7) % 20 FROM range(30) t(i);
        """,
        # a column that is each row's own median price
        "housing": """
            CREATE TABLE housing (city VARCHAR, year BIGINT, month BIGINT, sales DOUBLE,
                                  median DOUBLE);
            INSERT INTO housing VALUES ('Austin', 2010, 1, 100, 180000),
              ('Austin', 2010, 2, 120, 190000), ('Waco', 2010, 1, 40, 90000),
              ('Waco', 2010, 2, 45, 95000), ('Austin', 2011, 1, 130, 210000);
        """,
        # faculty pay: ranks, a 0/1 outcome named as no flag, a not-known answer
        "paybook": """
            CREATE TABLE staff (rank VARCHAR, sex VARCHAR, salary BIGINT, service BIGINT,
                              promoted BIGINT, tenure VARCHAR);
            INSERT INTO staff VALUES
              ('Prof', 'Female', 120000, 20, 1, 'y'), ('Prof', 'Male', 150000, 25, 1, 'y'),
              ('Prof', 'Male', 140000, 30, 0, 'nk'), ('Prof', 'Male', 135000, 18, 1, 'n'),
              ('AsstProf', 'Female', 80000, 3, 0, 'n'), ('AsstProf', 'Male', 82000, 3, 1, 'y'),
              ('AsstProf', 'Female', 79000, 4, 0, 'nk');
        """,
        # a monthly economy: a count of people, a rate, no rate in its name
        "economy": """
            CREATE TABLE economy (date DATE, unemploy BIGINT, psavert DOUBLE);
            INSERT INTO economy SELECT DATE '1970-01-01' + INTERVAL (i) MONTH,
              1000 + (i * 37) % 500, 2 + (i * 13) % 150 / 10.0 FROM range(480) t(i);
        """,
        # prisoners held: each row a state, a sex and a quarter, with a count of them
        "prisons": """
            CREATE TABLE prison_stock (state VARCHAR, gender VARCHAR, t DATE, count BIGINT);
            INSERT INTO prison_stock SELECT s, g, DATE '2015-03-01' + INTERVAL (3 * q) MONTH,
              100 + q * 10 + (CASE s WHEN 'QLD' THEN 500 ELSE 0 END)
                + (CASE g WHEN 'Male' THEN 900 ELSE 0 END)
              FROM (VALUES ('NSW'), ('QLD')) a(s), (VALUES ('Female'), ('Male')) b(g),
                   range(8) r(q);
        """,
        # bakers with counts of technical placings: which one the verb says
        "bakes": """
            CREATE TABLE bakers (baker VARCHAR, technical_winner BIGINT, technical_top3 BIGINT,
                                 technical_bottom BIGINT);
            INSERT INTO bakers VALUES ('Ann', 1, 6, 0), ('Bea', 4, 5, 1), ('Cy', 2, 7, 2),
              ('Di', 0, 2, 5);
        """,
        # airquality's shape: a day each row, kept as Month and Day numbers
        "weather": """
            CREATE TABLE air (Ozone DOUBLE, Temp BIGINT, Month BIGINT, Day BIGINT);
            INSERT INTO air SELECT 20 + i % 50, 70 + (i * 7) % 25, 5 + i // 31, 1 + i % 31
              FROM range(124) t(i);
        """,
        # cars of a few makers, each model sold in several versions
        "makers": """
            CREATE TABLE autos (maker VARCHAR, model VARCHAR, hwy BIGINT);
            INSERT INTO autos SELECT CASE WHEN i < 30 THEN 'dodge' WHEN i < 45 THEN 'toyota'
              ELSE 'audi' END, 'm' || CAST(CASE WHEN i < 30 THEN i % 3 WHEN i < 45 THEN 10 + i % 7
              ELSE 20 + i % 2 END AS VARCHAR), 20 + i FROM range(50) t(i);
        """,
        # a column named by the word "difference": its name, never a difference asked
        "standings": """
            CREATE TABLE league (team VARCHAR, points BIGINT, goal_difference BIGINT);
            INSERT INTO league VALUES ('A', 80, 30), ('B', 75, 41), ('C', 60, -5);
        """,
        # one reading a day per city: levels, which never add up
        "climate": """
            CREATE TABLE climate (city VARCHAR, day BIGINT, temp DOUBLE, wind DOUBLE);
            INSERT INTO climate SELECT CASE WHEN i % 3 = 0 THEN 'Lima' ELSE 'Oslo' END, i,
              10 + (i * 7) % 25, (i * 5) % 17 FROM range(60) t(i);
        """,
        # a register of heart attacks with a two-digit onset year nothing here reads
        "register": """
            CREATE TABLE register (outcome VARCHAR, smoker VARCHAR, yronset BIGINT);
            INSERT INTO register VALUES ('dead', 'y', 85), ('live', 'y', 86), ('live', 'n', 85),
              ('dead', 'n', 90), ('live', 'n', 91), ('dead', 'y', 92);
        """,
        # a health survey of yes/no answers, "uninsured" and "not married" their no
        "coverage": """
            CREATE TABLE HealthCover (age BIGINT, gender VARCHAR, insurance VARCHAR,
              married VARCHAR, region VARCHAR, ethnicity VARCHAR, family BIGINT);
            INSERT INTO HealthCover SELECT 18 + (i * 7) % 45, ['female', 'male'][1 + i % 2],
              ['yes', 'yes', 'no'][1 + (i // 2) % 3], ['yes', 'no'][1 + (i // 3) % 2],
              ['west', 'south', 'midwest', 'northeast'][1 + i % 4],
              ['cauc', 'afam', 'other'][1 + (i // 5) % 3], 1 + (i * 3) % 6
            FROM range(200) t(i);
        """,
        # flights under a run-together name, each carrying a flight number many rows share
        "skyways": """
            CREATE TABLE bayflights (year BIGINT, month BIGINT, day BIGINT, carrier VARCHAR,
              flight BIGINT, origin VARCHAR, dest VARCHAR, dep_delay BIGINT, distance BIGINT);
            INSERT INTO bayflights SELECT 2023, 1 + i % 12, 1 + i % 28,
              ['UA', 'UA', 'UA', 'AS', 'AS', 'WN'][1 + i % 6], 100 + i % 9,
              ['SFO', 'OAK', 'SJC'][1 + i % 3], ['LAX', 'SEA', 'DEN', 'PHX'][1 + i % 4],
              (i * 13) % 60 - 10, 300 + (i * 37) % 900
            FROM range(300) t(i);
        """,
        # a season's batting lines, one player a row
        "batting": """
            CREATE TABLE mlb_players_18 (name VARCHAR, team VARCHAR, AB BIGINT, H BIGINT,
              HR BIGINT, RBI BIGINT, stolen_bases BIGINT);
            INSERT INTO mlb_players_18 SELECT 'Player ' || i, ['NYY', 'BOS', 'LAD'][1 + i % 3],
              100 + i * 11, 20 + i * 3, i, (i * 5) % 97, (i * 7) % 31 FROM range(45) t(i);
            INSERT INTO mlb_players_18 VALUES (' Trout, M', 'LAA', 471, 147, 39, 79, 24);
        """,
        # occupants of crashed vehicles, each vehicle's model year a DOUBLE
        "wrecks": """
            CREATE TABLE crashes (yearacc BIGINT, yearVeh DOUBLE, seatbelt VARCHAR,
              dead VARCHAR, ageOFocc BIGINT);
            INSERT INTO crashes VALUES (1999, 1988, 'belted', 'alive', 30),
              (1999, 1995, 'none', 'dead', 45), (2000, 1972, 'belted', 'alive', 60),
              (2001, 1999, 'none', 'alive', 22), (2001, 1990, 'belted', 'dead', 71);
        """,
        # a table named by what its figure counts (each row a day's cases in one ward), an
        # illness misspelt in the data
        "fevers": """
            CREATE TABLE TyphoidCases1900 (day DATE, ward VARCHAR, illness VARCHAR,
              cases BIGINT);
            INSERT INTO TyphoidCases1900 VALUES
              ('1900-05-01', 'East', 'Typhoid', 4), ('1900-05-01', 'West', 'Typhoid', 6),
              ('1900-05-01', 'East', 'Dysentry', 2), ('1900-05-02', 'East', 'Typhoid', 1),
              ('1900-05-02', 'West', 'Dysentry', 7), ('1900-06-01', 'West', 'Typhoid', 9),
              ('1900-06-03', 'East', 'Typhoid', 3), ('1900-06-03', 'West', 'Dysentry', 5);
        """,
        # two brands' prices side by side, told apart by code suffixes (one reads as a unit)
        "sodas": """
            CREATE TABLE purchases (Bought VARCHAR, PriceKG DOUBLE, PriceFP DOUBLE, Shop BIGINT);
            INSERT INTO purchases VALUES ('KG', 1.99, 1.75, 1), ('FP', 1.99, 1.69, 1),
              ('FP', 2.09, 1.69, 2), ('KG', 2.09, 1.79, 2), ('FP', 1.89, 1.59, 3);
        """,
        # a training log where the shoe is missing on some runs and a placeholder on one
        "trainers": """
            CREATE TABLE runs (Miles DOUBLE, Shoe VARCHAR);
            INSERT INTO runs VALUES (5.0, 'Asics'), (7.5, 'Asics'), (10.0, 'Brooks'),
              (3.0, NULL), (4.0, NULL), (6.0, '*');
        """,
        # a team missing on one row
        "kits": """
            CREATE TABLE scorers (team VARCHAR, goals BIGINT);
            INSERT INTO scorers VALUES ('Reds', 3), ('Reds', 2), ('Blues', 4), (NULL, 1);
        """,
        # two brands' prices side by side, each column suffixed with the brand's code, and
        # the code of what was bought on each row (one purchase a row)
        "juices": """
            CREATE TABLE juice (Purchase VARCHAR, StoreID BIGINT, WeekofPurchase BIGINT,
              PriceSG DOUBLE, PriceBF DOUBLE, DiscSG DOUBLE, DiscBF DOUBLE);
            INSERT INTO juice VALUES
              ('BF', 1, 230, 1.79, 1.99, 0.0, 0.0), ('SG', 2, 230, 1.89, 2.09, 0.1, 0.2),
              ('SG', 3, 230, 1.99, 2.19, 0.2, 0.0), ('BF', 4, 230, 2.09, 2.29, 0.0, 0.2),
              ('SG', 1, 230, 2.19, 1.99, 0.1, 0.0), ('SG', 2, 230, 1.79, 2.09, 0.2, 0.2),
              ('BF', 3, 230, 1.89, 2.19, 0.0, 0.0), ('SG', 4, 230, 1.99, 2.29, 0.1, 0.2),
              ('SG', 1, 234, 2.09, 1.99, 0.2, 0.0), ('BF', 2, 235, 2.19, 2.09, 0.0, 0.2),
              ('SG', 3, 231, 1.79, 2.19, 0.1, 0.0), ('SG', 4, 232, 1.89, 2.29, 0.2, 0.2),
              ('BF', 1, 233, 1.99, 1.99, 0.0, 0.0), ('SG', 2, 234, 2.09, 2.09, 0.1, 0.2),
              ('SG', 3, 235, 2.19, 2.19, 0.2, 0.0), ('BF', 4, 231, 1.79, 2.29, 0.0, 0.2),
              ('SG', 1, 232, 1.89, 1.99, 0.1, 0.0), ('SG', 2, 233, 1.99, 2.09, 0.2, 0.2),
              ('BF', 3, 234, 2.09, 2.19, 0.0, 0.0), ('SG', 4, 235, 2.19, 2.29, 0.1, 0.2),
              ('SG', 1, 231, 1.79, 1.99, 0.2, 0.0), ('BF', 2, 232, 1.89, 2.09, 0.0, 0.2),
              ('SG', 3, 233, 1.99, 2.19, 0.1, 0.0), ('SG', 4, 234, 2.09, 2.29, 0.2, 0.2),
              ('BF', 1, 235, 2.19, 1.99, 0.0, 0.0), ('SG', 2, 231, 1.79, 2.09, 0.1, 0.2),
              ('SG', 3, 232, 1.89, 2.19, 0.2, 0.0), ('BF', 4, 233, 1.99, 2.29, 0.0, 0.2),
              ('SG', 1, 234, 2.09, 1.99, 0.1, 0.0), ('SG', 2, 235, 2.19, 2.09, 0.2, 0.2);
        """,
        # one rating a row; genres joined by '|'; the raters and the films told by their ids
        "reviews": """
            CREATE TABLE ratings_log (userId BIGINT, movieId BIGINT, title VARCHAR,
              genres VARCHAR, rating DOUBLE);
            INSERT INTO ratings_log VALUES (1, 10, 'Alpha', 'Drama', 4.5),
              (1, 11, 'Beta', 'Comedy|Drama', 3.0), (2, 10, 'Alpha', 'Drama', 5.0),
              (2, 12, 'Gamma', 'Comedy', 2.5), (3, 10, 'Alpha', 'Drama', 4.0),
              (3, 11, 'Beta', 'Comedy|Drama', 3.5), (3, 12, 'Gamma', 'Comedy', 2.0),
              (3, 13, 'Delta', 'Horror|Comedy', 1.5);
        """,
        # one row a course; each professor's age repeated on every course they taught
        "lecturers": """
            CREATE TABLE courses (course_id BIGINT, prof_id BIGINT, age BIGINT,
              gender VARCHAR, score DOUBLE);
            INSERT INTO courses VALUES (1, 1, 30, 'female', 4.0), (2, 1, 30, 'female', 4.4),
              (3, 1, 30, 'female', 4.2), (4, 2, 60, 'male', 3.9), (5, 3, 45, 'female', 4.8),
              (6, 3, 45, 'female', 4.6);
        """,
        # one row a college and year; names shared by two colleges; counts of people
        "alumni": """
            CREATE TABLE outcomes (unitid BIGINT, inst_name VARCHAR, year BIGINT,
              earnings_med DOUBLE, count_working DOUBLE, count_not_working DOUBLE);
            INSERT INTO outcomes VALUES (1, 'Union College', 2013, 40000, 100, 20),
              (2, 'Union College', 2013, 45000, 80, 10),
              (3, 'Hill University', 2013, 52000, 300, 40),
              (1, 'Union College', 2014, 41000, 110, 25),
              (2, 'Union College', 2014, 46000, 90, 12),
              (3, 'Hill University', 2014, 55000, 310, 35);
        """,
        # a job title that is also a phrase of the question
        "lenders": """
            CREATE TABLE loans (emp_title VARCHAR, amount BIGINT, grade VARCHAR);
            INSERT INTO loans VALUES ('loan officer', 1000, 'A'), ('nurse', 2000, 'B'),
              ('teacher', 1500, 'A'), ('nurse', 500, 'C');
        """,
        # one row a year (the year measured unique when profiled); a dotted population in
        # thousands; prices indexed
        "yearbook": """
            CREATE TABLE yearly (Year BIGINT, CPI DOUBLE, "population.K" DOUBLE,
              realGDPperCapita DOUBLE, executive VARCHAR);
            INSERT INTO yearly VALUES (1900, 8.0, 76094, 6000, 'McKinley'),
              (1910, 9.0, 92407, 7000, 'Taft'), (1950, 24.1, 151868, 15000, 'Truman'),
              (1970, 38.8, 205052, 23000, 'Nixon'), (1980, 82.4, 227225, 29000, 'Carter'),
              (2000, 172.2, 282162, 46000, 'Clinton');
        """,
        # one row per patient (`id` unique), and their visits repeating the id
        "trial": """
            CREATE TABLE patients (id BIGINT, age DOUBLE, sex VARCHAR, chol DOUBLE,
              stage BIGINT);
            INSERT INTO patients VALUES (1, 58.0, 'f', 260, 4), (2, 56.0, 'f', 300, 3),
              (3, 70.0, 'm', 180, 4), (4, 54.0, 'f', 240, 2);
            CREATE TABLE visits (id BIGINT, day BIGINT, age DOUBLE, sex VARCHAR, chol DOUBLE,
              stage BIGINT);
            INSERT INTO visits VALUES (1, 0, 58.0, 'f', 260, 4), (1, 180, 58.5, 'f', 250, 4),
              (2, 0, 56.0, 'f', 300, 3), (3, 0, 70.0, 'm', 180, 4),
              (3, 200, 70.5, 'm', 190, 4), (3, 400, 71.0, 'm', 200, 4),
              (4, 0, 54.0, 'f', 240, 2);
        """,
        # a moment kept as whole seconds since 1970
        "clicks": """
            CREATE TABLE purchases (user_id BIGINT, created_utc BIGINT, amount DOUBLE);
            INSERT INTO purchases VALUES (1, 1420070400, 10.0), (2, 1451606400, 20.0),
              (1, 1451692800, 5.0), (3, 1483228800, 7.5);
        """,
        # a storm named by a number word, beside a question that asks for five of them
        "gales": """
            CREATE TABLE storm_lows (name VARCHAR, pressure BIGINT);
            INSERT INTO storm_lows VALUES ('Five', 1007), ('Wilma', 882), ('Rita', 895),
              ('Ivan', 910), ('Kate', 950), ('Lee', 990), ('Max', 1000);
        """,
        # two years of monthly sales per city, years and months as numbers
        "citymonths": """
            CREATE TABLE city_months (city VARCHAR, year BIGINT, month BIGINT, sales BIGINT);
            INSERT INTO city_months VALUES ('Austin', 2022, 1, 100), ('Austin', 2022, 2, 500),
              ('Austin', 2023, 1, 300), ('Austin', 2023, 2, 350), ('Waco', 2022, 1, 40),
              ('Waco', 2023, 1, 45);
        """,
        # pet licences, some with no name recorded
        "licences": """
            CREATE TABLE pet_licenses (animal_name VARCHAR, species VARCHAR, fee DOUBLE,
              insurance VARCHAR);
            INSERT INTO pet_licenses VALUES ('Rex', 'Dog', 20, 'yes'), (NULL, 'Cat', 15, 'no'),
              ('Tom', 'Cat', 15, 'no'), (NULL, 'Dog', 20, 'yes'), ('Bo', 'Goat', 30, 'no');
        """,
        # occupants of crashes: whether an airbag or a belt was there ('none' when not)
        "crashes": """
            CREATE TABLE nass (dead VARCHAR, airbag VARCHAR, seatbelt VARCHAR,
              occRole VARCHAR, ageOFocc BIGINT);
            INSERT INTO nass SELECT CASE WHEN i % 7 = 0 OR i % 5 = 0 THEN 'dead' ELSE 'alive' END,
              CASE WHEN i % 3 = 0 THEN 'none' ELSE 'airbag' END,
              CASE WHEN i % 4 = 0 THEN 'none' ELSE 'belted' END,
              CASE WHEN i % 2 = 0 THEN 'driver' ELSE 'pass' END, 16 + i % 60 FROM range(300) t(i);
        """,
        # quarters kept as text labels ('2015 Q1'), one row per state and quarter
        "stays": """
            CREATE TABLE aus_stays (Date VARCHAR, State VARCHAR, Takings DOUBLE,
              Occupancy DOUBLE);
            INSERT INTO aus_stays SELECT (2014 + i // 4)::VARCHAR || ' Q' || (1 + i % 4)::VARCHAR,
              s, 100 + i * 3 + (CASE WHEN s = 'Victoria' THEN 50 ELSE 0 END),
              60 + i % 4 + (CASE WHEN s = 'Tasmania' THEN 5 ELSE 0 END)
              FROM range(8) t(i), (VALUES ('Victoria'), ('Tasmania')) v(s);
        """,
        # a table named in the singular (`AirCrash`): each row one crash, dated
        "planecrash": """
            CREATE TABLE AirCrash (Phase VARCHAR, Cause VARCHAR, date DATE,
              Fatalities BIGINT, Year BIGINT);
            INSERT INTO AirCrash SELECT ['landing', 'takeoff', 'en route'][1 + i % 3],
              ['weather', 'human error', 'mechanical'][1 + (i // 2) % 3],
              DATE '1995-01-04' + INTERVAL (i * 97) DAY, 10 + (i * 13) % 90,
              year(DATE '1995-01-04' + INTERVAL (i * 97) DAY) FROM range(90) t(i);
        """,
        # states said by their initials (ACT, NSW), quarters as text labels
        "territories": """
            CREATE TABLE aus_occ (Date VARCHAR, State VARCHAR, Occupancy DOUBLE);
            INSERT INTO aus_occ SELECT '2015 Q' || (1 + i % 4)::VARCHAR, s,
              60 + i * 4 + (CASE WHEN s = 'New South Wales' THEN 3 ELSE 0 END)
              FROM range(4) t(i), (VALUES ('Australian Capital Territory'), ('New South Wales'),
              ('Northern Territory')) v(s);
        """,
        # a salary survey: no dates, titles as typed, a location that is no office
        "paysheet": """
            CREATE TABLE blizzard_pay (current_title VARCHAR, current_salary DOUBLE,
              salary_type VARCHAR, percent_incr DOUBLE, location VARCHAR);
            INSERT INTO blizzard_pay VALUES ('Software Engineer', 100000, 'year', 3, 'Austin'),
              ('Software Engineer', 120000, 'year', 5, 'Irvine'),
              ('Title', 1, 'year', 0, 'Irvine'), ('Software Engineer', 50, 'hour', 2, 'Irvine'),
              ('Designer', 90000, 'year', 2, 'Austin'),
              ('Designer', 95000, 'year', 4, 'Work from home'),
              ('Producer', 80000, 'year', 1, 'Irvine');
        """,
        # diamonds graded by a one-letter color
        "jewels": """
            CREATE TABLE diamonds (carat DOUBLE, color VARCHAR, price BIGINT);
            INSERT INTO diamonds VALUES (0.3, 'D', 500), (1.5, 'J', 9000), (1.2, 'J', 7000),
              (2.4, 'E', 15000), (0.9, 'J', 2500), (1.8, 'D', 11000);
        """,
        # journals with their publisher and how often they are cited
        "periodicals": """
            CREATE TABLE Journals (title VARCHAR, publisher VARCHAR, price BIGINT,
              citations BIGINT);
            INSERT INTO Journals VALUES ('Econometrica', 'Wiley', 300, 8000),
              ('Journal A', 'Elsevier', 900, 120), ('Journal B', 'Elsevier', 700, 90),
              ('Journal C', 'Elsevier', 650, 300), ('Journal D', 'Wiley', 200, 40),
              ('Journal E', 'MIT Press', 150, 2500);
        """,
        # police stops: each row one stop, the kind of problem as a word
        "stops": """
            CREATE TABLE MplsStops (problem VARCHAR, neighborhood VARCHAR, race VARCHAR);
            INSERT INTO MplsStops SELECT CASE WHEN i % 3 = 0 THEN 'suspicious' ELSE 'traffic'
              END, ['Phillips', 'Whittier', 'Lyndale'][1 + i % 3], ['Black', 'White'][1 + i % 2]
              FROM range(30) t(i);
        """,
        # episodes with no date, keyed like the ratings that hold each one's air date
        "showdates": """
            CREATE TABLE episodes (series BIGINT, episode BIGINT, bakers_out BIGINT);
            CREATE TABLE ratings (series BIGINT, episode BIGINT, uk_airdate DATE,
              viewers_7day DOUBLE);
            INSERT INTO episodes SELECT 1 + i // 4, 1 + i % 4, 1 + i % 2 FROM range(12) t(i);
            INSERT INTO ratings SELECT 1 + i // 4, 1 + i % 4,
              DATE '2010-08-01' + INTERVAL (i * 50) DAY, 2.0 + i * 0.5 FROM range(12) t(i);
        """,
        # populations by census year, the year in each column's name
        "censuses": """
            CREATE TABLE towny (name VARCHAR, population_2016 BIGINT, population_2021 BIGINT);
            INSERT INTO towny VALUES ('Ajax', 119677, 126666), ('Barrie', 141434, 147829),
              ('Brock', 11642, 12567), ('Ottawa', 934243, 1017449), ('Whitby', 128377, 138501);
        """,
        # one rating per row: a movie's ratings are its rows
        "ratings": """
            CREATE TABLE movie_ratings (title VARCHAR, rating DOUBLE, userId BIGINT);
            INSERT INTO movie_ratings VALUES ('Alien', 4.0, 1), ('Alien', 5.0, 2),
              ('Alien', 4.5, 3), ('Alien', 3.0, 4), ('Alien', 4.0, 5), ('Brazil', 2.0, 1),
              ('Brazil', 3.0, 2), ('Brazil', 2.5, 3), ('Cube', 5.0, 1), ('Dune', 1.0, 2),
              ('Dune', 2.0, 4);
        """,
        # one row per country and year
        "lifespans": """
            CREATE TABLE wbd (country VARCHAR, year BIGINT, lifeexp DOUBLE);
            INSERT INTO wbd VALUES ('Chad', 2019, 54.0), ('Chad', 2020, 55.0),
              ('Japan', 2019, 84.0), ('Japan', 2020, 84.5), ('Peru', 2020, 76.0);
        """,
        # a count of deaths on each row: "people died" adds it up
        "tremors": """
            CREATE TABLE quakes_log (region VARCHAR, deaths BIGINT, magnitude DOUBLE);
            INSERT INTO quakes_log VALUES ('Chile', 120, 7.1), ('Chile', 5, 5.9),
              ('Peru', 40, 6.5), ('Chile', 0, 4.8);
        """,
        # a table named by the plural of its one figure
        "payroll": """
            CREATE TABLE Salaries (rank VARCHAR, discipline VARCHAR, "yrs.service" BIGINT,
              sex VARCHAR, salary BIGINT);
            INSERT INTO Salaries VALUES ('Prof', 'A', 20, 'Male', 130000),
              ('Prof', 'B', 25, 'Female', 121000), ('AsstProf', 'B', 2, 'Male', 80000),
              ('AsstProf', 'A', 4, 'Female', 78000), ('Prof', 'B', 31, 'Male', 150000);
        """,
        # fuel economy in the city and on the highway, the table named by the unit
        "mileage": """
            CREATE TABLE mpg (manufacturer VARCHAR, model VARCHAR, class VARCHAR, cty BIGINT,
              hwy BIGINT);
            INSERT INTO mpg VALUES ('honda', 'civic', 'compact', 28, 33),
              ('toyota', 'corolla', 'compact', 26, 35), ('audi', 'a4', 'compact', 18, 29),
              ('ford', 'f150', 'pickup', 13, 17), ('dodge', 'ram', 'pickup', 12, 16),
              ('toyota', 'camry', 'midsize', 21, 31);
        """,
        # viewers of each episode
        "broadcast": """
            CREATE TABLE episodes (series BIGINT, episode BIGINT, viewers DOUBLE);
            INSERT INTO episodes VALUES (1, 1, 2.25), (1, 2, 2.5), (2, 1, 3.75), (2, 2, 4.5),
              (2, 3, 5.0);
        """,
        # six-hourly observations of named storms: one storm is many rows
        "tracks": """
            CREATE TABLE storms (name VARCHAR, year BIGINT, month BIGINT, day BIGINT,
              hour BIGINT, status VARCHAR, wind BIGINT);
            INSERT INTO storms SELECT 'Able', 2005, 8, 1 + i // 4, (i % 4) * 6, 'hurricane', 90
              FROM range(3) t(i);
            INSERT INTO storms SELECT 'Baker', 2005, 9, 1 + i // 4, (i % 4) * 6, 'hurricane', 80
              FROM range(2) t(i);
            INSERT INTO storms SELECT 'Carol', 2006, 9, 1 + i // 4, (i % 4) * 6, 'hurricane',
              100 FROM range(12) t(i);
            INSERT INTO storms SELECT 'Dot', 2006, 10, 1 + i // 4, (i % 4) * 6,
              'tropical storm', 50 FROM range(4) t(i);
        """,
        # lap times kept in seconds, and said so in the name
        "laps": """
            CREATE TABLE laps (driver VARCHAR, lap BIGINT, lap_time_sec DOUBLE);
            INSERT INTO laps VALUES ('Ana', 1, 92.5), ('Ana', 2, 90.1), ('Bo', 1, 95.0);
        """,
        "monthly": """
            CREATE TABLE city_sales (city VARCHAR, year BIGINT, month BIGINT, sales BIGINT);
            INSERT INTO city_sales VALUES
              ('Austin', 2023, 1, 100), ('Austin', 2023, 2, 120), ('Dallas', 2023, 1, 300),
              ('Dallas', 2023, 2, 10), ('Waco', 2023, 1, 40), ('Waco', 2023, 2, 45);
        """,
    }
    out = {}
    for name, ddl in tables.items():
        path = root / f"{name}.duckdb"
        con = duckdb.connect(str(path))
        con.execute(ddl)
        con.close()
        out[name] = (Session(path, root / f"{name}-project"), path)
    yield out
    for session, _ in out.values():
        session.close()


@pytest.mark.parametrize(
    ("db", "question", "sql"),
    [
        # "have N <column>": the number is the column's value
        ("fleet", "How many ships have 3 masts?", "SELECT COUNT(*) FROM vessels WHERE masts = 3"),
        # an adjective names its column through the vocabulary, in a comparison...
        (
            "fleet",
            "How many ships are faster than 16 knots?",
            "SELECT COUNT(*) FROM vessels WHERE speed_kn > 16",
        ),
        # ...and in a superlative over the rows, labelled by their name
        (
            "fleet",
            "Which ship is the longest?",
            "SELECT name, MAX(length_m) FROM vessels GROUP BY 1 ORDER BY 2 DESC LIMIT 1",
        ),
        (
            "fleet",
            "Which 2 vessels are the slowest?",
            "SELECT name, MIN(speed_kn) FROM vessels GROUP BY 1 ORDER BY 2 ASC LIMIT 2",
        ),
        # "the most common X": the group with the most rows
        (
            "fleet",
            "Which home port is the most common?",
            "SELECT home_port, COUNT(*) FROM vessels GROUP BY 1 ORDER BY 2 DESC LIMIT 1",
        ),
        # "from 1869" on an integer year column
        (
            "fleet",
            "How many ships are from 1869?",
            "SELECT COUNT(*) FROM vessels WHERE year = 1869",
        ),
        # one named row's own value
        (
            "fleet",
            "How long is the Cutty Sark?",
            "SELECT length_m FROM vessels WHERE name = 'Cutty Sark'",
        ),
        # a generic noun after a column's name adds nothing to it
        ("sensors", "What is the average wind speed?", "SELECT ROUND(AVG(Wind), 2) FROM readings"),
        # readings of named things: the things are their distinct names
        ("sensors", "How many sensors are there?", "SELECT COUNT(DISTINCT name) FROM readings"),
        ("sensors", "How many readings are there?", "SELECT COUNT(*) FROM readings"),
        # an aggregation word that is part of a column's name names the column
        (
            "sensors",
            "What is the highest total rainfall?",
            "SELECT MAX(rainfall_total) FROM readings",
        ),
        # "the highest number of X" where X already counts something: its values
        (
            "monthly",
            "What is the highest number of sales?",
            "SELECT MAX(sales) FROM city_sales",
        ),
        # "each month of the year" on year and month columns: the month number
        (
            "monthly",
            "Average sales for each month of the year",
            "SELECT month, ROUND(AVG(sales), 2) FROM city_sales GROUP BY 1",
        ),
        # a name run together from the beginnings of words: relhum
        (
            "sensors",
            "What is the average relative humidity?",
            "SELECT ROUND(AVG(relhum), 2) FROM readings",
        ),
        # a number and a singular noun before what is counted: "three-mast ships"
        (
            "fleet",
            "How many three-mast ships are there?",
            "SELECT COUNT(*) FROM vessels WHERE masts = 3",
        ),
        # "which number of X": X is what is ranked
        (
            "fleet",
            "Which number of masts has the highest average speed?",
            "SELECT masts, AVG(speed_kn) FROM vessels GROUP BY 1 ORDER BY 2 DESC LIMIT 1",
        ),
        # a yes/no column named as a verb is a condition on the rows counted
        (
            "fleet",
            "How many London ships were wrecked?",
            "SELECT COUNT(*) FROM vessels WHERE home_port = 'London' AND wrecked = 'yes'",
        ),
        (
            "fleet",
            "What percentage of ships were wrecked?",
            "SELECT ROUND(100.0 * COUNT(*) FILTER (wrecked = 'yes') / COUNT(*), 2) FROM vessels",
        ),
        # "what is the longest ship" names the ship
        (
            "fleet",
            "What is the longest ship?",
            "SELECT name, MAX(length_m) FROM vessels GROUP BY 1 ORDER BY 2 DESC LIMIT 1",
        ),
        # a count compared against a number whose column is named elsewhere in the question
        (
            "fleet",
            "How many ships make under 10 knots of speed?",
            "SELECT COUNT(*) FROM vessels WHERE speed_kn < 10",
        ),
        # with the row noun before it, a word names a column: "ships by type" is ship_type
        (
            "fleet",
            "Number of ships by type",
            "SELECT ship_type, COUNT(*) FROM vessels GROUP BY 1",
        ),
        # "how old was the youngest …" over the rows: the noun after the superlative is the rows
        ("fleet", "How long was the shortest vessel?", "SELECT MIN(length_m) FROM vessels"),
        # an adjective of a value ("African"), the column in the table the filters are on
        (
            "world",
            "How many African countries had a life expectancy below 50 in 2007?",
            "SELECT COUNT(DISTINCT country) FROM stats "
            "WHERE continent = 'Africa' AND lifeExp < 50 AND year = 2007",
        ),
        # "which X … <conditions>": the X the conditions keep, with the value compared
        (
            "world",
            "Which countries in Africa had a life expectancy above 49 in 2007?",
            "SELECT country, MAX(lifeExp) FROM stats "
            "WHERE continent = 'Africa' AND lifeExp > 49 AND year = 2007 GROUP BY 1",
        ),
        # a code spelled by initials, a number word as its digit: "four-wheel drive" is 4WD
        (
            "garage",
            "Average tank of four-wheel drive cars",
            "SELECT ROUND(AVG(tank), 2) FROM autos WHERE drive = '4WD'",
        ),
        # two numbers named back to back are one noun: "sales volume" is the volume
        (
            "garage",
            "Which drive has the highest total sales volume?",
            "SELECT drive, SUM(volume) FROM autos GROUP BY 1 ORDER BY 2 DESC LIMIT 1",
        ),
        # a superlative is never a value ("light" is also a hull colour)
        (
            "fleet",
            "Which ship is the lightest?",
            "SELECT name, MIN(weight) FROM vessels GROUP BY 1 ORDER BY 2 ASC LIMIT 1",
        ),
        # the noun after a value says which column it is in ("white" hulls and sails)
        (
            "fleet",
            "How many ships have white sails?",
            "SELECT COUNT(*) FROM vessels WHERE sail_color = 'white'",
        ),
        # a value stored as CamelCase, asked in words
        (
            "fleet",
            "How many full rigged ships are there?",
            "SELECT COUNT(*) FROM vessels WHERE rig = 'FullRigged'",
        ),
        # a column whose name is not an identifier (R's "Solar.R") is quoted, never parsed
        ("station", "What is the median solar radiation?", 'SELECT MEDIAN("Solar.R") FROM daily'),
        (
            "station",
            "Average solar radiation by month",
            'SELECT Month, ROUND(AVG("Solar.R"), 2) FROM daily GROUP BY 1',
        ),
        # rows with no name, ranked: the rows themselves, whole (a NULL never ranks first)
        (
            "gems",
            "Show the 2 heaviest gems",
            "SELECT * FROM gems ORDER BY carat DESC NULLS LAST LIMIT 2",
        ),
        (
            "gems",
            "Which Ideal gem is the most expensive?",
            "SELECT * FROM gems WHERE cut = 'Ideal' ORDER BY price DESC LIMIT 1",
        ),
        ("gems", "Which gem is the lightest?", "SELECT * FROM gems ORDER BY carat LIMIT 1"),
        # a column named by its unit is reached by what the unit measures: carat is a weight
        ("gems", "What is the average weight?", "SELECT ROUND(AVG(carat), 2) FROM gems"),
        # a car is its make and its model: every label column, not the first one met
        (
            "dealer",
            "What is the heaviest car?",
            "SELECT Model, Make, MAX(Weight) FROM cars GROUP BY 1, 2 ORDER BY 3 DESC LIMIT 1",
        ),
        # a verb and the noun made from it meet: "wins" for a winner column, "viewing" for
        # viewers; a number written against a word is read apart ("28-day" for 28day)
        (
            "contest",
            "What is the average number of technical wins?",
            "SELECT ROUND(AVG(technical_winner), 2) FROM bakers",
        ),
        (
            "contest",
            "What is the highest 28-day viewing figure?",
            "SELECT MAX(viewers_28day) FROM bakers",
        ),
        # "<yes/no column> rate": the share of yes, within the rows the other filters keep
        (
            "fleet",
            "What is the wreck rate of London ships?",
            "SELECT ROUND(100.0 * COUNT(*) FILTER (wrecked = 'yes') / COUNT(*), 2) FROM vessels "
            "WHERE home_port = 'London'",
        ),
        (
            "fleet",
            "Wreck rate by rig",
            "SELECT rig, ROUND(100.0 * COUNT(*) FILTER (wrecked = 'yes') / COUNT(*), 2) "
            "FROM vessels GROUP BY 1",
        ),
        (
            "fleet",
            "What percentage of clippers were wrecked?",
            "SELECT ROUND(100.0 * COUNT(*) FILTER (wrecked = 'yes') / COUNT(*), 2) FROM vessels "
            "WHERE ship_type = 'clipper'",
        ),
        # a unit after the number says the column when the noun before it is a calendar
        # part: days are not measured in degrees
        (
            "station",
            "What percentage of days were above 85 degrees?",
            "SELECT ROUND(100.0 * COUNT(*) FILTER (Temp > 85) / COUNT(*), 2) FROM daily",
        ),
        # a value that is the counted column's and, by another name, another column's: not
        # the one county called Ohio, but the state (stored as OH)
        (
            "counties",
            "How many counties are in Ohio?",
            "SELECT COUNT(DISTINCT county) FROM counties WHERE state = 'OH'",
        ),
        # an ordinal stored as 1st, right before a word of its column's name
        (
            "voyage",
            "How many first class passengers were there?",
            "SELECT COUNT(*) FROM passengers WHERE passengerClass = '1st'",
        ),
        (
            "voyage",
            "Average age of second class passengers",
            "SELECT ROUND(AVG(age), 2) FROM passengers WHERE passengerClass = '2nd'",
        ),
        (
            "voyage",
            "Survival rate by passenger class",
            "SELECT passengerClass, ROUND(100.0 * COUNT(*) FILTER (survived = 'yes') / COUNT(*), 2)"
            " FROM passengers GROUP BY 1",
        ),
        # a word that begins stored values: the rows whose value begins with it, as a word
        # ("Merc" keeps Merc 280, never Mercury Cougar), also when stored cut short
        (
            "gearbox",
            "How many cars have a manual transmission?",
            "SELECT COUNT(*) FROM cars WHERE trans LIKE 'manual(%'",
        ),
        (
            "gearbox",
            "Total horsepower of the Toyota cars",
            "SELECT SUM(hp) FROM cars WHERE model LIKE 'Toyota %'",
        ),
        (
            "gearbox",
            "What is the total horsepower of the Mercedes cars?",
            "SELECT SUM(hp) FROM cars WHERE model LIKE 'Merc %'",
        ),
        (
            "monthly",
            "What were the Dallas sales in February 2023?",
            "SELECT sales FROM city_sales WHERE city = 'Dallas' AND year = 2023 AND month = 2",
        ),
        # "rear wheel drive": a value, then words ending in its column's name
        (
            "dealer",
            "Average price of rear wheel drive cars",
            "SELECT ROUND(AVG(Price), 2) FROM cars WHERE DriveTrain = 'Rear'",
        ),
        # a country's adjective, stored under the country's short name
        (
            "dealer",
            "How many American cars are there?",
            "SELECT COUNT(*) FROM cars WHERE Origin = 'USA'",
        ),
        (
            "world",
            "Average life expectancy in 2002 and in 2007",
            "SELECT year, ROUND(AVG(lifeExp), 2) FROM stats WHERE year IN (2002, 2007) GROUP BY 1",
        ),
        # "which series had the oldest bakers on average": the series (a number) is what is
        # ranked, the adjective names the age, "on average" its aggregate
        (
            "contest",
            "Which series had the oldest bakers on average?",
            "SELECT series, ROUND(AVG(age), 2) FROM bakers GROUP BY 1 ORDER BY 2 DESC LIMIT 1",
        ),
        # a superlative never begins values ("largest" is not the Large Van)
        ("gearbox", "What is the largest horsepower?", "SELECT MAX(hp) FROM cars"),
        # "share" after a column's name is its noun, not a share of a total
        (
            "polls",
            "Compare the average remain share in online and telephone polls",
            "SELECT poll_type, ROUND(AVG(remain), 2) FROM brexit_polls "
            "WHERE poll_type IN ('Online', 'Telephone') GROUP BY 1",
        ),
        # the last word of a table's name, a plural, names its rows: "polls"
        (
            "polls",
            "What share of polls were online?",
            "SELECT ROUND(100.0 * COUNT(*) FILTER (poll_type = 'Online') / COUNT(*), 2) "
            "FROM brexit_polls",
        ),
        # a column named like its table ranks; the table's rows are not counted
        (
            "jobs",
            "Which occupation has the highest prestige?",
            "SELECT occupation, prestige FROM Prestige ORDER BY prestige DESC LIMIT 1",
        ),
        # "how many" of a column that already counts (a plural): its figures added up
        (
            "jobs",
            "How many electoral votes does Florida have?",
            "SELECT SUM(electoral_votes) FROM results WHERE state = 'Florida'",
        ),
        # a verb that begins a date column's name says which date a period is on
        (
            "polls",
            "How many polls ended in June 2016?",
            "SELECT COUNT(*) FROM brexit_polls WHERE enddate BETWEEN '2016-06-01' AND '2016-06-30'",
        ),
        (
            "polls",
            "How many polls started each month?",
            "SELECT CAST(CAST(date_trunc('month', startdate) AS DATE) AS VARCHAR), COUNT(*) "
            "FROM brexit_polls GROUP BY 1",
        ),
        # a state's name and its code, two spellings of one attribute: the one as written
        (
            "jobs",
            "What was the population of Texas?",
            "SELECT population FROM murders WHERE state = 'Texas'",
        ),
        # "by occupation type": the last of two names is the compound's head
        (
            "jobs",
            "Average income by occupation type",
            "SELECT type, ROUND(AVG(income), 2) FROM Prestige GROUP BY 1",
        ),
        # a code spelled by a hyphened compound's initials; a code that begins the word
        (
            "jobs",
            "Compare the average income of blue-collar and white-collar occupations",
            "SELECT type, ROUND(AVG(income), 2) FROM Prestige WHERE type IN ('bc', 'wc') "
            "GROUP BY 1",
        ),
        (
            "jobs",
            "What is the lowest prestige among professional occupations?",
            "SELECT MIN(prestige) FROM Prestige WHERE type = 'prof'",
        ),
        # "not" before a yes/no column is its no
        (
            "arrests",
            "How many of those arrested were not citizens?",
            "SELECT COUNT(*) FROM Arrests WHERE citizen = 'No'",
        ),
        # "arrestees" are the arrests (a noun in -ee); a rate of yes per value
        (
            "arrests",
            "Compare the release rate of black and white arrestees",
            "SELECT colour, ROUND(100.0 * COUNT(*) FILTER (released = 'Yes') / COUNT(*), 2) "
            "FROM Arrests GROUP BY 1",
        ),
        # "the average number of checks": a column that counts, averaged
        (
            "arrests",
            "What is the average number of checks?",
            "SELECT ROUND(AVG(checks), 2) FROM Arrests",
        ),
        # a noun the data lacks before a column's name qualifies it, and is said
        (
            "arrests",
            "Average number of police checks for each skin colour",
            "SELECT colour, ROUND(AVG(checks), 2) FROM Arrests GROUP BY 1",
        ),
        # "by number of masts": the masts' own numbers group (a count would rank instead)
        (
            "fleet",
            "Average speed by number of masts",
            "SELECT masts, ROUND(AVG(speed_kn), 2) FROM vessels GROUP BY 1",
        ),
        # a unit that is also a column's name is the column: "over 1 carat"
        (
            "gems",
            "Average price of gems over 1 carat",
            "SELECT ROUND(AVG(price), 2) FROM gems WHERE carat > 1",
        ),
        # a word the data lacks before a value qualifies it, and is said
        (
            "jobs",
            "How many senior professional occupations are there?",
            "SELECT COUNT(*) FROM Prestige WHERE type = 'prof'",
        ),
        # "the N days with the highest X" over rows of Month and Day: the rows, ranked (never
        # the day of the month summed over months)
        (
            "station",
            "Show the 2 days with the highest ozone",
            "SELECT * FROM daily ORDER BY Ozone DESC LIMIT 2",
        ),
        (
            "station",
            "Which day had the highest ozone?",
            "SELECT * FROM daily ORDER BY Ozone DESC LIMIT 1",
        ),
        (
            "gems",
            "Show the 2 gems with the highest price",
            "SELECT * FROM gems ORDER BY price DESC LIMIT 2",
        ),
        # a word that ends with a one-word table's name is a kind of what it holds; "mag",
        # "deeper" through the vocabulary
        (
            "mini",
            "How many earthquakes had a magnitude above 5?",
            "SELECT COUNT(*) FROM quakes WHERE mag > 5",
        ),
        (
            "mini",
            "How many quakes were deeper than 500 km?",
            "SELECT COUNT(*) FROM quakes WHERE depth > 500",
        ),
        # "how many chicks" over a numeric Chick column: its distinct values, never the count
        # of its cells (one per weighing)
        ("mini", "How many chicks are there?", "SELECT COUNT(DISTINCT Chick) FROM ChickWeight"),
        # a value of a column listing one value per row names that row
        (
            "mini",
            "What is the murder rate in Texas?",
            "SELECT Murder FROM USArrests WHERE state = 'Texas'",
        ),
        # each state is one row: ranked by its own figure, nothing added up or asked
        (
            "mini",
            "Top 2 states by assaults",
            "SELECT state, Assault FROM USArrests ORDER BY Assault DESC LIMIT 2",
        ),
        # a plural table whose one numeric column is a tally: its name reads as that column
        (
            "crime",
            "Total murders by region",
            "SELECT region, SUM(total) FROM murders GROUP BY 1",
        ),
        (
            "labour",
            "How many months had more than 10 million unemployed?",
            "SELECT COUNT(*) FROM labour WHERE unemploy > 10000",
        ),
        ("crime", "How many rodents are there?", "SELECT 2"),
        (
            "crime",
            "How many four-wheel drive vehicles are there?",
            "SELECT COUNT(*) FROM vehicles WHERE drv = '4'",
        ),
        # "gun murders": a noun the data lacks qualifies a table read as its tally
        (
            "crime",
            "Which 2 states had the fewest gun murders?",
            "SELECT state, total FROM murders ORDER BY total LIMIT 2",
        ),
        # "across the country" is the whole table when nothing in the data is a country
        (
            "crime",
            "What is the total population across the country?",
            "SELECT SUM(population) FROM murders",
        ),
        # "years of education": a unit said before its column, never the rows; each of the
        # 60 occupations is one row (more values than a category lists): its own figure
        (
            "crime",
            "Top 3 occupations by years of education",
            "SELECT occupation, education FROM trades ORDER BY education DESC LIMIT 3",
        ),
        # a word the data lacks that is the opposite of one yes/no column: that column's "no"
        (
            "voyage",
            "How many passengers died?",
            "SELECT COUNT(*) FROM passengers WHERE survived = 'no'",
        ),
        # a yes/no column after a comparison's number is a condition, never a unit
        (
            "voyage",
            "How many passengers over 25 survived?",
            "SELECT COUNT(*) FROM passengers WHERE age > 25 AND survived = 'yes'",
        ),
        # a word ending a run-together column name reaches it (English puts the head last)
        (
            "crime",
            "Average college by state",
            "SELECT state, ROUND(AVG(percollege), 2) FROM counties GROUP BY 1",
        ),
        # "and" for a stored "&"
        (
            "crime",
            "How many models have driver and passenger airbags?",
            "SELECT COUNT(*) FROM models WHERE AirBags = 'Driver & Passenger'",
        ),
        # a currency amount no row meets, inside the column's range in thousands
        (
            "dealer",
            "How many cars cost more than $30,000?",
            "SELECT COUNT(*) FROM cars WHERE Price > 30",
        ),
        # a list of periods: those periods only, a row for each
        (
            "monthly",
            "Compare total sales in January and February",
            "SELECT month, SUM(sales) FROM city_sales WHERE month IN (1, 2) GROUP BY 1",
        ),
        (
            "fleet",
            "Compare the average length in 1868 and 1869",
            "SELECT year, ROUND(AVG(length_m), 2) FROM vessels "
            "WHERE year IN (1868, 1869) GROUP BY 1",
        ),
        # ranking groups by a figure that is usually added up: added up, and said
        (
            "monthly",
            "Which city had the most sales?",
            "SELECT city, SUM(sales) FROM city_sales GROUP BY 1 ORDER BY 2 DESC LIMIT 1",
        ),
        # one column compared with another, in either order of the words
        (
            "survey",
            "How many polls had leave ahead of remain?",
            "SELECT COUNT(*) FROM polls WHERE leave > remain",
        ),
        (
            "survey",
            "In how many polls was remain behind leave?",
            "SELECT COUNT(*) FROM polls WHERE leave > remain",
        ),
        # "the poll with the largest sample": each pollster's largest poll, never their sum
        (
            "survey",
            "Which pollster ran the poll with the largest sample?",
            "SELECT pollster, MAX(samplesize) FROM polls GROUP BY 1 ORDER BY 2 DESC LIMIT 1",
        ),
        # a yes/no column said as an adjective of the rows: its yes...
        (
            "survey",
            "How many private colleges are there?",
            "SELECT COUNT(*) FROM \"College\" WHERE Private = 'Yes'",
        ),
        # ...and with its opposite (vocabulary `opposites`) both, side by side; a rate is
        # averaged for each group, never added up
        (
            "survey",
            "Compare the graduation rate of private and public colleges",
            'SELECT Private, ROUND(AVG("Grad.Rate"), 2) FROM "College" GROUP BY 1',
        ),
        # survey labels with their order number in front: "married" is '2. Married'
        (
            "census",
            "How many of the workers are married?",
            "SELECT COUNT(*) FROM \"Wage\" WHERE maritl = '2. Married'",
        ),
        (
            "census",
            "What percentage of workers have health insurance?",
            "SELECT ROUND(100.0 * COUNT(*) FILTER (health_ins = '1. Yes') / COUNT(*), 2) "
            'FROM "Wage"',
        ),
        (
            "census",
            "What is the average age of divorced workers?",
            "SELECT ROUND(AVG(age), 2) FROM \"Wage\" WHERE maritl = '4. Divorced'",
        ),
        # "200k" and "200 thousand dollars" over a wage kept in thousands
        (
            "census",
            "How many workers earn more than 200k?",
            'SELECT COUNT(*) FROM "Wage" WHERE wage > 200',
        ),
        # a tally column (`count`) is what "cases" per year add up, never the rows...
        (
            "outbreaks",
            "Measles cases per year",
            "SELECT year, SUM(count) FROM us_contagious_diseases WHERE disease = 'Measles' "
            "GROUP BY 1",
        ),
        # ...and a share "of all measles cases" takes measles as the whole
        (
            "outbreaks",
            "What share of all measles cases were in California?",
            "SELECT ROUND(100.0 * SUM(count) FILTER (state = 'California') / SUM(count), 2) "
            "FROM us_contagious_diseases WHERE disease = 'Measles'",
        ),
        # a yes/no column between "which" and the noun qualifies the noun, never groups
        (
            "survey",
            "Which public college got the most applications?",
            "SELECT college, MAX(Apps) FROM \"College\" WHERE Private = 'No' "
            "GROUP BY 1 ORDER BY 2 DESC LIMIT 1",
        ),
        # "the first year with measles data": the lowest year the rows kept have
        (
            "outbreaks",
            "What is the first year with polio data?",
            "SELECT MIN(year) FROM us_contagious_diseases WHERE disease = 'Polio'",
        ),
        # "no salary recorded" is a missing value, not an exclusion
        (
            "plains",
            "How many counties have no salary recorded?",
            "SELECT COUNT(*) FROM midwest WHERE Salary IS NULL",
        ),
        # three words whose initials spell a column, "per" among them: not a grouping
        (
            "motors",
            "How many cars get more than 30 miles per gallon?",
            "SELECT COUNT(*) FROM cars WHERE mpg > 30",
        ),
        # a county is a row, a few names shared: each row's own figure ranks
        (
            "plains",
            "Top 2 counties by population density",
            "SELECT county, MAX(popdensity) FROM midwest GROUP BY 1 ORDER BY 2 DESC LIMIT 2",
        ),
        # county names that repeat on a table with no time column: one row per county...
        ("plains", "How many counties are there?", "SELECT COUNT(*) FROM midwest"),
        # ...while the same names repeated once a year are one thing each
        (
            "world",
            "How many countries are in the stats?",
            "SELECT COUNT(DISTINCT country) FROM stats",
        ),
        # a nationality is the country the data keeps
        (
            "rankings",
            "How many Japanese companies are there?",
            "SELECT COUNT(*) FROM companies WHERE country = 'Japan'",
        ),
        # "hit" is what the players did, the home runs what is compared or ranked
        (
            "ballpark",
            "How many players hit more than 20 home runs?",
            "SELECT COUNT(*) FROM Batters WHERE HmRun > 20",
        ),
        (
            "ballpark",
            "Which player hit the most home runs?",
            "SELECT player, HmRun FROM Batters ORDER BY HmRun DESC LIMIT 1",
        ),
        # a word for each letter of a name, and a money noun after a column's own words
        (
            "campus",
            "What is the median student-faculty ratio?",
            'SELECT MEDIAN("S.F.Ratio") FROM schools',
        ),
        (
            "campus",
            "What is the highest room and board cost?",
            'SELECT MAX("Room.Board") FROM schools',
        ),
        (
            "campus",
            "How many schools charge more than $15,000 in out-of-state tuition?",
            "SELECT COUNT(*) FROM schools WHERE Outstate > 15000",
        ),
        # the verb after the figure it did, and asked with "did" of one named row
        (
            "ballpark",
            "Total home runs hit in each league",
            "SELECT League, SUM(HmRun) FROM Batters GROUP BY League",
        ),
        (
            "ballpark",
            "How many home runs did Ann hit?",
            "SELECT SUM(HmRun) FROM Batters WHERE player = 'Ann'",
        ),
        # people counted by a place's one population column (never `popwhite`)
        (
            "places",
            "How many counties have more than 1 million people?",
            "SELECT COUNT(*) FROM places WHERE poptotal > 1000000",
        ),
        # the run-together name that names no group is the plain poverty rate
        (
            "places",
            "Which state has the highest average poverty rate?",
            "SELECT state, ROUND(AVG(percbelowpoverty), 2) FROM places GROUP BY state "
            "ORDER BY 2 DESC LIMIT 1",
        ),
        # a yes/no column's rate in each group, ranked
        (
            "telecom",
            "Which state has the highest churn rate?",
            "SELECT state, ROUND(100.0 * COUNT(*) FILTER (WHERE churn = 'yes') / COUNT(*), 2) "
            "FROM accounts GROUP BY state ORDER BY 2 DESC LIMIT 1",
        ),
        # a synonym of one word of a longer name ("daytime" for the day of total_day_minutes)
        (
            "telecom",
            "How many accounts used more than 300 daytime minutes?",
            "SELECT COUNT(*) FROM accounts WHERE total_day_minutes > 300",
        ),
        # a loss is a profit below zero; the largest loss the lowest profit
        (
            "ledger",
            "How many firms made a loss?",
            "SELECT COUNT(*) FROM firms WHERE profits < 0",
        ),
        (
            "ledger",
            "Which firm had the largest loss?",
            "SELECT name, profits FROM firms ORDER BY profits LIMIT 1",
        ),
        # "industry" for a category column; "belongs to" is "from"
        (
            "ledger",
            "Average profits by industry",
            "SELECT category, ROUND(AVG(profits), 2) FROM firms GROUP BY 1",
        ),
        (
            "ledger",
            "What share of the total market value belongs to Japan?",
            "SELECT ROUND(100.0 * SUM(marketvalue) FILTER (WHERE country = 'Japan') "
            "/ SUM(marketvalue), 2) FROM firms",
        ),
        # "top 3 <the rows> by a figure": each row's own figure, ranked
        (
            "ledger",
            "Top 3 firms by market value",
            "SELECT name, marketvalue FROM firms ORDER BY marketvalue DESC LIMIT 3",
        ),
        # rates (plural) of a yes/no column, compared over a list of ordinal values
        (
            "voyage",
            "Compare the survival rates of first and third class passengers",
            "SELECT passengerClass, ROUND(100.0 * COUNT(*) FILTER (WHERE survived = 'yes') "
            "/ COUNT(*), 2) FROM passengers WHERE passengerClass IN ('1st', '3rd') GROUP BY 1",
        ),
        # "how did … change over time": a trend, by the table's year
        (
            "world",
            "How did the average life expectancy change over time in Africa?",
            "SELECT year, ROUND(AVG(lifeExp), 2) FROM stats WHERE continent = 'Africa' "
            "GROUP BY year",
        ),
        # a two-word name said around "were"; "in total" only says the count is of all
        (
            "bookings",
            "How many individuals were affected in total?",
            "SELECT SUM(Individuals_Affected) FROM breaches",
        ),
        # years of one named row's data are counted, never added up
        (
            "outbreaks",
            "How many years of Measles data are there for California?",
            "SELECT COUNT(DISTINCT year) FROM us_contagious_diseases "
            "WHERE disease = 'Measles' AND state = 'California'",
        ),
        # names kept once per year: the year said picks one and filters nothing; "country"
        # for `countries_and_areas`; "population" for total_pop_2018
        (
            "demographics",
            "What was the average life expectancy in 2018?",
            "SELECT ROUND(AVG(life_expectancy_2018), 2) FROM sowc",
        ),
        (
            "demographics",
            "Which country had the most births in 2018?",
            "SELECT countries_and_areas, births_2018 FROM sowc ORDER BY 2 DESC LIMIT 1",
        ),
        (
            "demographics",
            "Top 3 countries by population",
            "SELECT countries_and_areas, total_pop_2018 FROM sowc ORDER BY 2 DESC LIMIT 3",
        ),
        # "per item" where each row is one item: the rows averaged, never a group per name
        (
            "menu",
            "Which 2 restaurants have the lowest average calories per item?",
            "SELECT restaurant, ROUND(AVG(calories), 2) FROM fastfood GROUP BY 1 "
            "ORDER BY 2 LIMIT 2",
        ),
        # "since 2010" on a year column has no end
        (
            "seasons",
            "Total home runs per year since 2010",
            "SELECT year, SUM(homeruns) FROM mlb_teams WHERE year >= 2010 GROUP BY year",
        ),
        # "which teams" by `team_name`; "ERA" spells earned_run_average, as does the name
        # said whole (its last word is no average of "earned run")
        (
            "seasons",
            "Which 2 teams had the lowest ERA in 2019?",
            "SELECT team_name, earned_run_average FROM mlb_teams WHERE year = 2019 "
            "ORDER BY 2 LIMIT 2",
        ),
        (
            "seasons",
            "Which 2 teams had the lowest earned run average in 2019?",
            "SELECT team_name, earned_run_average FROM mlb_teams WHERE year = 2019 "
            "ORDER BY 2 LIMIT 2",
        ),
        # "by" is a word, never the initials of best_year
        (
            "seasons",
            "Average home runs by league",
            "SELECT league_id, ROUND(AVG(homeruns), 2) FROM mlb_teams GROUP BY 1",
        ),
        # having what a number column counts is that number above zero; "no" is zero
        (
            "homes",
            "How many houses have a fireplace?",
            "SELECT COUNT(*) FROM houses WHERE fireplaces > 0",
        ),
        (
            "homes",
            "How many houses have no fireplace?",
            "SELECT COUNT(*) FROM houses WHERE fireplaces = 0",
        ),
        (
            "snacks",
            "How many menu items contain trans fat?",
            "SELECT COUNT(*) FROM menu WHERE trans_fat > 0",
        ),
        # what a house sold for is its price; "type of" before a column only says kinds
        (
            "homes",
            "How many houses sold for more than $300,000?",
            "SELECT COUNT(*) FROM houses WHERE price > 300000",
        ),
        (
            "homes",
            "How many houses are there for each type of sewer?",
            "SELECT sewer, COUNT(*) FROM houses GROUP BY 1",
        ),
        # "a Big Mac": a capitalized name of several words is that row, not a kind
        (
            "snacks",
            "How many calories are in a Big Mac?",
            "SELECT calories FROM menu WHERE item = 'Big Mac'",
        ),
        # a name of words cut short, said whole in another order (`Man.trans.avail`)
        (
            "showroom",
            "What percentage of cars are available with a manual transmission?",
            "SELECT ROUND(100.0 * COUNT(*) FILTER (WHERE \"Man.trans.avail\" = 'Yes') "
            "/ COUNT(*), 2) FROM Cars93",
        ),
        # "American-made": made where the nationality says, never the column `Make`
        (
            "showroom",
            "How many American-made cars are there?",
            "SELECT COUNT(*) FROM Cars93 WHERE Origin = 'USA'",
        ),
        # a named row's text, as its number would be
        (
            "parks",
            "What was the Boston Red Sox's ballpark in 2004?",
            "SELECT ball_park FROM teams WHERE team_name = 'Boston Red Sox' AND year = 2004",
        ),
        # a country's name finds its ISO code in a column of codes
        (
            "travel",
            "How many stays came from Portugal?",
            "SELECT COUNT(*) FROM stays WHERE country = 'prt'",
        ),
        # a column's own words without "avg" and "per", in any order; "and" is never the
        # code `and` (Andorra)
        (
            "bookings",
            "Compare the average room price for transient and contract customers",
            "SELECT customer_type, ROUND(AVG(avg_price_per_room), 2) FROM hotel_rates "
            "WHERE customer_type IN ('transient', 'contract') GROUP BY 1",
        ),
        (
            "bookings",
            "What is the average price per room?",
            "SELECT ROUND(AVG(avg_price_per_room), 2) FROM hotel_rates",
        ),
        # a participle that is a word of one numeric column's name; people counted by the
        # number; `Number` is a record's number, never how many breaches a row holds
        (
            "bookings",
            "How many breaches affected more than 100,000 people?",
            "SELECT COUNT(*) FROM breaches WHERE Individuals_Affected > 100000",
        ),
        (
            "bookings",
            "How many breaches were reported in Texas?",
            "SELECT COUNT(*) FROM breaches WHERE State = 'TX'",
        ),
        # a year column and several dates: a year is read on the year column, said
        (
            "incidents",
            "How many breaches happened in 2010?",
            "SELECT COUNT(*) FROM breaches WHERE year = 2010",
        ),
        (
            "incidents",
            "Compare the number of breaches in 2010 and 2013",
            "SELECT year, COUNT(*) FROM breaches WHERE year IN (2010, 2013) GROUP BY 1",
        ),
        # "per worker" where each row is a worker: the average over the rows, no grouping
        (
            "census",
            "What is the average wage per worker?",
            'SELECT ROUND(AVG(wage), 2) FROM "Wage"',
        ),
        # a word that begins a run-together name ("sample" of samplesize)
        (
            "survey",
            "What was the average sample size?",
            "SELECT ROUND(AVG(samplesize), 2) FROM polls",
        ),
        # "processors" are the rows (named one by one, dated), never `process` cut short
        (
            "chips",
            "How many processors have at least 8 cores?",
            "SELECT COUNT(*) FROM chips WHERE cores >= 8",
        ),
        (
            "chips",
            "Which processor has the highest base clock?",
            "SELECT name, MAX(base_clock) FROM chips GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 1",
        ),
        # "smokers": the rows whose `smoke` is yes, never every row of `smoking`
        (
            "habits",
            "What is the median age of smokers?",
            "SELECT MEDIAN(age) FROM smoking WHERE smoke = 'Yes'",
        ),
        (
            "habits",
            "Number of smokers per region",
            "SELECT region, COUNT(*) FROM smoking WHERE smoke = 'Yes' GROUP BY 1",
        ),
        (
            "habits",
            "How many smokers are under 25?",
            "SELECT COUNT(*) FROM smoking WHERE smoke = 'Yes' AND age < 25",
        ),
        (
            "habits",
            "Compare the percentage of smokers among men and women",
            "SELECT gender, ROUND(100.0 * COUNT(*) FILTER (smoke = 'Yes') / COUNT(*), 2) "
            "FROM smoking GROUP BY 1",
        ),
        # a verb naming a date column dates the rows by it
        (
            "chips",
            "How many processors were released in 2018?",
            "SELECT COUNT(*) FROM chips WHERE year(released) = 2018",
        ),
        # "of a processor": each row is one
        (
            "chips",
            "What is the median base clock of a processor?",
            "SELECT MEDIAN(base_clock) FROM chips",
        ),
        # the share of a yes/no condition's doers in each group, ranked
        (
            "habits",
            "Which region has the highest share of smokers?",
            "SELECT region, ROUND(100.0 * COUNT(*) FILTER (smoke = 'Yes') / COUNT(*), 2) "
            "FROM smoking GROUP BY 1 ORDER BY 2 DESC LIMIT 1",
        ),
        # "voted Labour": the verb names the value's column; the rows are counted
        (
            "ballots",
            "How many women voted Liberal Democrat?",
            "SELECT COUNT(*) FROM ballots WHERE gender = 'female' AND vote = 'Liberal Democrat'",
        ),
        # "the number of <values> cases": the tally column, added up for each value named
        (
            "outbreaks",
            "Compare the number of measles and polio cases",
            "SELECT disease, SUM(count) FROM us_contagious_diseases "
            "WHERE disease IN ('Measles', 'Polio') GROUP BY 1",
        ),
        # a rate per N people: the tally added up over the rows, per their population
        (
            "outbreaks",
            "Which state had the highest measles rate per 100,000 people in 1960?",
            "SELECT state, SUM(count) * 100000.0 / SUM(population) FROM us_contagious_diseases "
            "WHERE disease = 'Measles' AND year = 1960 GROUP BY 1 ORDER BY 2 DESC LIMIT 1",
        ),
        (
            "outbreaks",
            "Polio cases per capita by state",
            "SELECT state, SUM(count) * 1.0 / SUM(population) FROM us_contagious_diseases "
            "WHERE disease = 'Polio' GROUP BY 1",
        ),
        # "rating" after a column's name (`Blair` holds ratings) only says what it holds
        (
            "ballots",
            "Compare the average Blair rating of men and women",
            "SELECT gender, ROUND(AVG(Blair), 2) FROM ballots GROUP BY 1",
        ),
        # a value a field lists among others ('Rain , Thunderstorm') keeps those rows too
        (
            "skies",
            "How many days had a thunderstorm in Chicago?",
            "SELECT COUNT(*) FROM Weather WHERE city = 'Chicago' "
            "AND (events = 'Thunderstorm' OR events LIKE '%, Thunderstorm')",
        ),
        # ... and asked for, they are the column's
        (
            "skies",
            "Average temperature in Chicago per month of the year",
            "SELECT month, ROUND(AVG(avg_temp), 2) FROM Weather WHERE city = 'Chicago' GROUP BY 1",
        ),
        # "average daily" over rows dated by the day: each row's own figure, averaged
        (
            "skies",
            "What was the average daily temperature in Mumbai?",
            "SELECT ROUND(AVG(avg_temp), 2) FROM Weather WHERE city = 'Mumbai'",
        ),
        # the people counted "are over 40": their age; a thing's number is never a figure
        (
            "staff",
            "How many employees in the Sales department are over 40?",
            "SELECT COUNT(*) FROM attrition WHERE Department = 'Sales' AND Age > 40",
        ),
        # "employees work overtime": the verb after the rows is not part of their name
        (
            "staff",
            "What percentage of employees work overtime?",
            "SELECT ROUND(100.0 * COUNT(*) FILTER (OverTime = 'Yes') / COUNT(*), 2) FROM attrition",
        ),
        # both words before the column's name give a code: "East and West division"
        (
            "divisions",
            "Compare the average salary of East and West division players",
            "SELECT Division, ROUND(AVG(Salary), 2) FROM players GROUP BY 1",
        ),
        # a candidate's share of the vote is the column named for them, in its own unit
        (
            "election",
            "In how many states did Trump get more than 60 percent of the vote?",
            "SELECT COUNT(*) FROM results WHERE trump > 60",
        ),
        (
            "election",
            "Compare Trump's average vote share in the South and the West",
            "SELECT region, ROUND(AVG(trump), 2) FROM results GROUP BY 1",
        ),
        # curated words: `displ` abbreviates displacement, which "engine size" also says
        (
            "engines",
            "Average engine size by year",
            "SELECT year, ROUND(AVG(displ), 2) FROM mpg GROUP BY 1",
        ),
        ("engines", "What is the largest displacement?", "SELECT MAX(displ) FROM mpg"),
        (
            "mammals",
            "How many animals weigh more than 500 kg?",
            "SELECT COUNT(*) FROM msleep WHERE bodywt > 500",
        ),
        (
            "mammals",
            "Which animal is the heaviest?",
            "SELECT name, bodywt FROM msleep ORDER BY bodywt DESC LIMIT 1",
        ),
        (
            "mammals",
            "What is the average brain weight?",
            "SELECT ROUND(AVG(brainwt), 2) FROM msleep",
        ),
        # "season 9" for the code 'S09'; two seasons named are compared side by side
        (
            "queens",
            "How many contestants were in season 9?",
            "SELECT COUNT(*) FROM contestants WHERE season = 'S09'",
        ),
        (
            "queens",
            "Compare the average age of the contestants in season 1 and season 12",
            "SELECT season, ROUND(AVG(age), 2) FROM contestants WHERE season IN ('S01', 'S12') "
            "GROUP BY 1",
        ),
        # "N or more", "aged N or older": the number itself and beyond it
        (
            "staff",
            "How many employees were aged 50 or older?",
            "SELECT COUNT(*) FROM attrition WHERE Age >= 50",
        ),
        (
            "queens",
            "How many contestants were 25 or younger?",
            "SELECT COUNT(*) FROM contestants WHERE age <= 25",
        ),
        # "who" with a superlative: the rows ranked, said by the one name column; a doer
        # noun after a value ("Best Actor winner") is the rows holding it
        (
            "awards",
            "Who is the youngest Best Actor winner?",
            "SELECT name, MIN(age) FROM oscars WHERE award = 'Best actor' GROUP BY 1 "
            "ORDER BY 2 LIMIT 1",
        ),
        # "the N most common X": how often each X is, ranked (the table holding X counted)
        (
            "queens",
            "What are the 3 most common seasons of the contestants?",
            "SELECT season, COUNT(*) FROM contestants GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 3",
        ),
        # "N <unit> or more": the unit stays the column's
        (
            "thermo",
            "How many days had a high temperature of 90 degrees or more?",
            "SELECT COUNT(*) FROM days WHERE high_temp >= 90",
        ),
        # a verb saying only that the counted things took place keeps every row
        (
            "league",
            "How many matches were played in the 1990/91 season?",
            "SELECT COUNT(*) FROM matches WHERE Year = 1990",
        ),
        # "median sale price" over a column named `median`: the column, not a median of it
        (
            "housing",
            "What was the highest median price in Austin?",
            "SELECT MAX(median) FROM housing WHERE city = 'Austin'",
        ),
        (
            "housing",
            "Average median sale price by city",
            "SELECT city, ROUND(AVG(median), 2) FROM housing GROUP BY 1",
        ),
        ("housing", "What is the median sales?", "SELECT MEDIAN(sales) FROM housing"),
        # a title won is the rows whose column named after it holds yes
        (
            "titles",
            "How many World Series have the New York Yankees won?",
            "SELECT COUNT(*) FROM teams WHERE team_name = 'New York Yankees' "
            "AND world_series_winner = 'Y'",
        ),
        (
            "titles",
            "How many division titles have the Atlanta Braves won?",
            "SELECT COUNT(*) FROM teams WHERE team_name = 'Atlanta Braves' "
            "AND division_winner = 'Y'",
        ),
        (
            "titles",
            "Which team has won the most World Series?",
            "SELECT team_name, COUNT(*) FROM teams WHERE world_series_winner = 'Y' "
            "GROUP BY 1 ORDER BY 2 DESC LIMIT 1",
        ),
        # "who" over the rows the conditions keep, said by the column named as one row
        (
            "bakers",
            "Who won series 2?",
            "SELECT baker, COUNT(*) FROM bakers WHERE series = 2 AND series_winner = 1 GROUP BY 1",
        ),
        # every row of a prize's table is a win
        (
            "prizes",
            "Who has won the most prizes?",
            "SELECT laureate_name, COUNT(*) FROM nobel_prizes GROUP BY 1 ORDER BY 2 DESC LIMIT 1",
        ),
        ("burgers", "How much sodium does a Whopper with cheese have?", "SELECT 1450"),
        # a key's number names one row, as a label does
        ("staff", "What is the age of employee number 1010?", "SELECT 22 + (10 * 5) % 40"),
        ("staff", "What is the department of employee number 1003?", "SELECT 'Sales'"),
        # a person filed surname first is said forenames first
        (
            "artworks",
            "How many works by Damien Hirst are in the collection?",
            "SELECT COUNT(*) FROM works WHERE artist = 'Hirst, Damien'",
        ),
        (
            "artworks",
            "How many different artists are represented?",
            "SELECT COUNT(DISTINCT artist) FROM works",
        ),
        # the table's name, said with its words, is the rows; its words are no value
        (
            "force",
            "What are the top 2 neighborhoods by number of uses of force?",
            "SELECT neighborhood, COUNT(*) FROM mn_police_use_of_force GROUP BY 1 "
            "ORDER BY 2 DESC, 1 LIMIT 2",
        ),
        (
            "force",
            "In how many different neighborhoods did police use force?",
            "SELECT COUNT(DISTINCT neighborhood) FROM mn_police_use_of_force",
        ),
        # "break down … by": the grouping "by" says; `flt` is flight, so "flight" is no
        # operator's first word
        (
            "strikes",
            "Break down the strikes by phase of flight",
            "SELECT phase_of_flt, COUNT(*) FROM birds GROUP BY 1",
        ),
        # an airline is an operator; "involved" joins the rows to the value after it
        (
            "strikes",
            "Which airline reported the most strikes?",
            "SELECT operator, COUNT(*) FROM birds GROUP BY 1 ORDER BY 2 DESC LIMIT 1",
        ),
        (
            "strikes",
            "How many strikes involved a Canada goose?",
            "SELECT COUNT(*) FROM birds WHERE species = 'CANADA GOOSE'",
        ),
        # "wildlife" is a compound word, never WILD TURKEY cut short
        ("strikes", "How many wildlife strikes were reported?", "SELECT COUNT(*) FROM birds"),
        # FRED's codes read by their names, and by the shorter ways people say them
        ("fred", "What was the lowest savings rate?", "SELECT MIN(psavert) FROM economics"),
        (
            "fred",
            "Average personal consumption by year",
            "SELECT year(date), ROUND(AVG(pce), 2) FROM economics GROUP BY 1",
        ),
        # "median" begins the column's name here: the question's statistic is "longest"
        (
            "fred",
            "What is the longest median unemployment duration?",
            "SELECT MAX(uempmed) FROM economics",
        ),
        # "when … lowest" asks for the time of the extreme, not the extreme alone
        (
            "fred",
            "When was the savings rate at its lowest?",
            "SELECT strftime(date, '%Y-%m-%d'), psavert FROM economics ORDER BY psavert LIMIT 1",
        ),
        # one breed stored in two spellings (a hyphen, a space): both kept
        (
            "pets",
            "How many pot-bellied pigs are registered?",
            "SELECT COUNT(*) FROM seattlepets "
            "WHERE primary_breed IN ('Pot-Bellied', 'Pot Bellied')",
        ),
        # "pets" ends the table's name; "in Seattle" is the place it holds; a licence (British
        # spelling) is what a row with a licence number and issue date is
        (
            "pets",
            "How many cats are licensed in Seattle?",
            "SELECT COUNT(*) FROM seattlepets WHERE species = 'Cat'",
        ),
        (
            "pets",
            "How many goats have a licence?",
            "SELECT COUNT(*) FROM seattlepets WHERE species = 'Goat'",
        ),
        # "issued" is a later word of the date column's name
        (
            "pets",
            "How many licences were issued in 2017?",
            "SELECT COUNT(*) FROM seattlepets WHERE year(license_issue_date) = 2017",
        ),
        # "name" is the table's one name column; a pet with no name never ranks as a name;
        # "what's" is "what is"
        (
            "pets",
            "What's the most popular name for a cat?",
            "SELECT animal_name, COUNT(*) FROM seattlepets WHERE species = 'Cat' "
            "AND animal_name IS NOT NULL GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 1",
        ),
        # "the names of" the rows kept: each by its name, a row with no name left out
        (
            "pets",
            "What are the names of the licensed pigs?",
            "SELECT animal_name, COUNT(*) FROM seattlepets WHERE species = 'Pig' "
            "AND animal_name IS NOT NULL GROUP BY 1",
        ),
        # deaths are fatalities, counted by `fatal` (the start of the table's name); New York
        # is stored as its postal code
        (
            "roads",
            "Compare traffic deaths in Alabama and Arizona in 1983",
            "SELECT state, SUM(fatal) FROM Fatalities WHERE year = 1983 AND state IN ('al', 'az') "
            "GROUP BY 1",
        ),
        (
            "roads",
            "Total traffic deaths per year",
            "SELECT year, SUM(fatal) FROM Fatalities GROUP BY 1",
        ),
        # with no aggregate word the deaths are still the tally, never a count of rows
        (
            "roads",
            "What were the traffic deaths in New York in 1984?",
            "SELECT SUM(fatal) FROM Fatalities WHERE year = 1984 AND state = 'ny'",
        ),
        # "no hair" where `hair_color` stores 'none'; IUCN's code for "endangered"; the
        # heaviest brain is the brain's weight
        (
            "creatures",
            "How many characters have no hair?",
            "SELECT COUNT(*) FROM characters WHERE hair_color = 'none'",
        ),
        (
            "creatures",
            "How many endangered animals are there?",
            "SELECT COUNT(*) FROM characters WHERE conservation = 'en'",
        ),
        (
            "creatures",
            "Which animal has the heaviest brain?",
            "SELECT name, MAX(brainwt) FROM characters GROUP BY 1 ORDER BY 2 DESC LIMIT 1",
        ),
        (
            "monthly",
            "Which city sold the most homes?",
            "SELECT city, SUM(sales) FROM city_sales GROUP BY 1 ORDER BY 2 DESC LIMIT 1",
        ),
        # a country under its UN name; `population` of the table `population` is the figure
        (
            "who",
            "What was the average population of the United States?",
            "SELECT ROUND(AVG(population), 2) FROM population "
            "WHERE country = 'United States of America'",
        ),
        (
            "who",
            "Total population of Vietnam in 1996",
            "SELECT SUM(population) FROM population WHERE country = 'Viet Nam' AND year = 1996",
        ),
        # both words name the rows: one count, never "rank by which"; "main breed" is the
        # primary one; "month of 2017" is a period
        (
            "pets",
            "Which zip code has the most licensed pets?",
            "SELECT zip_code, COUNT(*) FROM seattlepets GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 1",
        ),
        (
            "pets",
            "Which month of 2017 had the most licences?",
            "SELECT strftime(date_trunc('month', license_issue_date), '%Y-%m-%d'), COUNT(*) "
            "FROM seattlepets WHERE year(license_issue_date) = 2017 "
            "GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 1",
        ),
        # a taxi table's rows are its trips or rides; boys and girls are stored as male and
        # female; "answered the survey" is every row of it
        (
            "cabs",
            "How many rides did Flash Cab give?",
            "SELECT COUNT(*) FROM taxi WHERE company = 'Flash Cab'",
        ),
        (
            "teens",
            "What is the average height of boys and of girls?",
            "SELECT gender, ROUND(AVG(height), 2) FROM yrbss GROUP BY 1",
        ),
        # "carried out" says only that the rows took place; "inspected" is the verb the
        # table's rows are named after; "compare … in 2005 with 2015" is two years
        (
            "inspections",
            "How many restaurant inspections were carried out in 2010?",
            "SELECT COUNT(*) FROM restaurant_inspections WHERE Year = 2010",
        ),
        (
            "inspections",
            "How many times was Subway inspected in 2015?",
            "SELECT COUNT(*) FROM restaurant_inspections "
            "WHERE Year = 2015 AND business_name = 'SUBWAY'",
        ),
        (
            "inspections",
            "Compare the average inspection score in 2005 with 2015",
            "SELECT Year, ROUND(AVG(inspection_score), 2) FROM restaurant_inspections "
            "WHERE Year IN (2005, 2015) GROUP BY 1",
        ),
        # weekdays stored as 'Sat', 'Sun'; "Sun Taxi" stays the company
        (
            "cabs",
            "How many rides were taken on Saturdays?",
            "SELECT COUNT(*) FROM taxi WHERE dow = 'Sat'",
        ),
        (
            "cabs",
            "What percentage of Sun Taxi rides got a tip?",
            "SELECT ROUND(100.0 * COUNT(*) FILTER (WHERE tip = 'yes') / COUNT(*), 2) FROM taxi "
            "WHERE company = 'Sun Taxi'",
        ),
        # an age said as a noun ("14-year-olds") or after "are"; "less than 10 years old"
        # stays a comparison
        (
            "teens",
            "How many 14-year-olds answered the survey?",
            "SELECT COUNT(*) FROM yrbss WHERE age = 14",
        ),
        (
            "teens",
            "How many students are less than 16 years old?",
            "SELECT COUNT(*) FROM yrbss WHERE age < 16",
        ),
        # a year after "of" ending the question, a day written out after "on"
        (
            "stocks",
            "What was the lowest close of 2009?",
            "SELECT MIN(close) FROM sp500 WHERE year(date) = 2009",
        ),
        (
            "stocks",
            "Compare the average close in 2008 with the average close in 2010",
            "SELECT year(date), ROUND(AVG(close), 2) FROM sp500 WHERE year(date) IN (2008, 2010) "
            "GROUP BY 1",
        ),
        # a text column of dates written one way is the table's date
        (
            "textdates",
            "How many strikes happened in 1995?",
            "SELECT COUNT(*) FROM strikes WHERE year(strptime(date, '%m/%d/%Y %H:%M:%S')) = 1995",
        ),
        (
            "textdates",
            "How many strikes were reported each year?",
            "SELECT year(strptime(date, '%m/%d/%Y %H:%M:%S')), COUNT(*) FROM strikes GROUP BY 1",
        ),
        (
            "textdates",
            "Total amount per month",
            "SELECT strftime(strptime(issue_month, '%b-%Y'), '%Y-%m-%d'), SUM(amount) "
            "FROM months GROUP BY 1",
        ),
        # a verb of what every row is, in another form than the vocabulary's ("offered")
        (
            "courses",
            "How many Mathematics courses were offered?",
            "SELECT COUNT(*) FROM fall_list WHERE subject = 'Mathematics'",
        ),
        # one value stored in two spellings: both kept
        (
            "force",
            "How many subjects fled on foot?",
            "SELECT COUNT(*) FROM mn_police_use_of_force "
            "WHERE TRIM(type_resistance) = 'Fled on Foot'",
        ),
        # what the episodes had is compared, though `episode` is a number too
        (
            "tv",
            "How many episodes had more than 3 million viewers?",
            "SELECT COUNT(*) FROM ratings WHERE viewers_7day > 3",
        ),
        # rows kept by Month and Day are days: the hottest day is a row, however asked
        ("ozone", "Which day was the hottest?", "SELECT * FROM air ORDER BY Temp DESC LIMIT 1"),
        ("ozone", "When was the hottest day?", "SELECT * FROM air ORDER BY Temp DESC LIMIT 1"),
        (
            "ozone",
            "On which day was ozone highest?",
            "SELECT * FROM air ORDER BY Ozone DESC LIMIT 1",
        ),
        # `created_at` text read as dates; "posted" is what every tweet was
        (
            "posts",
            "How many tweets were posted in 2016?",
            "SELECT COUNT(*) FROM mayor_tweets WHERE created_at LIKE '2016%'",
        ),
        # "retweets" for `retweet_count`; what the tweets got is compared
        (
            "posts",
            "How many tweets got more than 100 retweets?",
            "SELECT COUNT(*) FROM mayor_tweets WHERE retweet_count > 100",
        ),
        # two values of one column after a comparative: that column ranks them
        (
            "faculty",
            "Who earns more on average, men or women?",
            "SELECT sex, AVG(salary) FROM Salaries GROUP BY sex ORDER BY 2 DESC LIMIT 1",
        ),
        # `hwy`, `comb`: highway, combined; "drive" for the description beside its code
        (
            "vehicles",
            "What is the average highway mpg?",
            "SELECT ROUND(AVG(hwy_mpg), 2) FROM epa2021",
        ),
        (
            "vehicles",
            "What is the average combined mpg by drive?",
            "SELECT drive_desc, ROUND(AVG(comb_mpg), 2) FROM epa2021 GROUP BY 1 ORDER BY 2 DESC",
        ),
        # "manufacturer" for `mfr_name`
        (
            "vehicles",
            "Which manufacturer has the most cars?",
            "SELECT mfr_name, COUNT(*) FROM epa2021 GROUP BY 1 ORDER BY 2 DESC LIMIT 1",
        ),
        # the clinics are ranked by their rows; the tests are no second grouping
        (
            "clinics",
            "List the 3 clinics with the most tests",
            "SELECT clinic_name, COUNT(*) FROM covid_testing GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 3",
        ),
        # one of a kind ranked: the row, never the figure alone
        (
            "sleepers",
            "Which primate is the heaviest?",
            "SELECT * FROM msleep WHERE \"order\" = 'Primates' ORDER BY bodywt DESC LIMIT 1",
        ),
        (
            "sleepers",
            "What is the lightest primate?",
            "SELECT * FROM msleep WHERE \"order\" = 'Primates' ORDER BY bodywt LIMIT 1",
        ),
        # "compare … between 1999 and 2008": the two years side by side; mileage averaged
        (
            "autos",
            "Compare city mileage between 1999 and 2008",
            "SELECT year, ROUND(AVG(cty), 2) FROM mpg GROUP BY 1 ORDER BY 1",
        ),
        # "of car": what the class is of, the rows; "engine" is the displacement
        (
            "autos",
            "What is the most common class of car?",
            "SELECT class, COUNT(*) FROM mpg GROUP BY 1 ORDER BY 2 DESC LIMIT 1",
        ),
        (
            "autos",
            "What is the average engine size by class?",
            "SELECT class, ROUND(AVG(displ), 2) FROM mpg GROUP BY 1 ORDER BY 2 DESC",
        ),
        # how often is how many rows; the whole country among the states is no state (a
        # column of more values than profiling lists: seen in the ranking, run again)
        (
            "statepolls",
            "Which state was polled most often?",
            "SELECT state, COUNT(*) FROM polls_us_election_2016 WHERE state <> 'U.S.' "
            "GROUP BY 1 ORDER BY 2 DESC LIMIT 1",
        ),
        # what a ride ended with, it had; "new" where nothing is called new
        (
            "cabs",
            "What share of taxi rides ended with a tip?",
            "SELECT ROUND(100.0 * COUNT(*) FILTER (WHERE tip = 'yes') / COUNT(*), 2) FROM taxi",
        ),
        (
            "pets",
            "How many new licences were issued in 2017?",
            "SELECT COUNT(*) FROM seattlepets WHERE year(license_issue_date) = 2017",
        ),
        # a table naming who won on each row (`Champion`) is a table of wins
        (
            "marathon",
            "Who won the men's open division most often?",
            "SELECT Champion, COUNT(*) FROM boston_marathon WHERE Event = 'Men''s open division' "
            "GROUP BY 1 ORDER BY 2 DESC LIMIT 1",
        ),
        # "math score" for `MathAch`; "students" the rows of the one table the rest is on
        (
            "scores",
            "What is the average math score of the students?",
            "SELECT ROUND(AVG(MathAch), 2) FROM MathAchieve",
        ),
        # "in a single season" over rows of one team and year says what a row is
        (
            "parks",
            "What is the most wins a team had in a single season?",
            "SELECT MAX(wins) FROM teams",
        ),
        # a median is no figure to add up: averaged per city, said
        (
            "housing",
            "Which city had the highest median price in 2010?",
            "SELECT city, ROUND(AVG(median), 2) FROM housing WHERE year = 2010 GROUP BY 1 "
            "ORDER BY 2 DESC LIMIT 1",
        ),
        # the low end of a scale names what its high end names: "shortest" ranks by height
        (
            "characters",
            "Who is the shortest character?",
            "SELECT name, height FROM starwars ORDER BY height LIMIT 1",
        ),
        # things seen many times (a name over 6-hourly rows): "hurricanes" are the storms
        # seen as hurricanes, by name, never the sightings
        (
            "sightings",
            "How many hurricanes were there in 2005?",
            "SELECT COUNT(DISTINCT name) FROM storms WHERE status = 'hurricane' AND year = 2005",
        ),
        # a decade of dates, named by its first year
        (
            "savings",
            "What was the average savings rate by decade?",
            "SELECT year(date) // 10 * 10, (year(date) // 10 * 10)::VARCHAR || 's', "
            "AVG(psavert) FROM econ GROUP BY 1, 2",
        ),
        # "the latest savings rate" is the figure on the last date, never the largest
        (
            "savings",
            "What was the latest savings rate?",
            "SELECT CAST(date AS VARCHAR), psavert FROM econ ORDER BY date DESC LIMIT 1",
        ),
        (
            "savings",
            "What was the earliest savings rate?",
            "SELECT CAST(date AS VARCHAR), psavert FROM econ ORDER BY date LIMIT 1",
        ),
        # "salary in discipline": two names, never the table-qualified `discipline`
        (
            "faculty",
            "What is the average salary in discipline B?",
            "SELECT AVG(salary) FROM Salaries WHERE discipline = 'B'",
        ),
        # "in the data" is where to look, never the source called 'Data Desk'
        (
            "posts",
            "How many different sources are in the data?",
            "SELECT COUNT(DISTINCT source) FROM mayor_tweets",
        ),
        # the whole a share is of is said first, in its own words ("professors": Prof)
        (
            "paybook",
            "What percentage of professors are women?",
            "SELECT ROUND(100.0 * COUNT(*) FILTER (WHERE sex = 'Female') / COUNT(*), 2) "
            "FROM staff WHERE rank = 'Prof'",
        ),
        # a 0/1 column is a yes/no flag whatever its name: its rate is its share of 1s
        (
            "paybook",
            "What is the promoted rate by rank?",
            "SELECT rank, ROUND(100.0 * AVG(promoted), 2) FROM staff GROUP BY rank",
        ),
        (
            "paybook",
            "How many women were promoted?",
            "SELECT COUNT(*) FROM staff WHERE sex = 'Female' AND promoted = 1",
        ),
        # a yes/no column that also says 'not known' is still yes/no
        (
            "paybook",
            "How many men have tenure?",
            "SELECT COUNT(*) FROM staff WHERE sex = 'Male' AND tenure = 'y'",
        ),
        # a verb naming a number ranks the rows, never groups by the number
        (
            "paybook",
            "Which professor earns the most?",
            "SELECT * FROM staff WHERE rank = 'Prof' ORDER BY salary DESC LIMIT 1",
        ),
        # two figures of one column said together; a range is both ends
        (
            "paybook",
            "What are the minimum and maximum salary by rank?",
            "SELECT rank, MIN(salary), MAX(salary) FROM staff GROUP BY rank",
        ),
        (
            "paybook",
            "What is the salary range for assistant professors?",
            "SELECT MIN(salary), MAX(salary) FROM staff WHERE rank = 'AsstProf'",
        ),
        # a level ranked by its adjective over groups: the mean (said, above)
        (
            "climate",
            "Which city was the windiest?",
            "SELECT city, ROUND(AVG(wind), 2) AS w FROM climate GROUP BY city "
            "ORDER BY w DESC LIMIT 1",
        ),
        # a difference between two values said: the first's figure minus the second's
        (
            "paybook",
            "What is the difference between the average salary of men and women?",
            "SELECT ROUND(AVG(salary) FILTER (WHERE sex = 'Male') - AVG(salary) FILTER "
            "(WHERE sex = 'Female'), 2) FROM staff",
        ),
        (
            "paybook",
            "What is the standard deviation of salary?",
            "SELECT ROUND(STDDEV_SAMP(salary), 2) FROM staff",
        ),
        # a verb before a name completes it: "won … technical challenges" is technical_winner
        (
            "bakes",
            "Which baker won the most technical challenges?",
            "SELECT baker, technical_winner FROM bakers ORDER BY technical_winner DESC LIMIT 1",
        ),
        (
            "weather",
            "What percentage of days in August had a temperature above 85?",
            "SELECT ROUND(100.0 * COUNT(*) FILTER (WHERE Temp > 85) / COUNT(*), 2) FROM air "
            "WHERE Month = 8",
        ),
        (
            "weather",
            "How many days did the temperature exceed 90?",
            "SELECT COUNT(*) FROM air WHERE Temp > 90",
        ),
        # a correlation of two number columns, over the rows and groups the rest says
        (
            "weather",
            "What is the correlation between temperature and ozone in June?",
            "SELECT ROUND(CORR(Temp, Ozone), 3) FROM air WHERE Month = 6",
        ),
        (
            "weather",
            "Correlation between ozone and temperature by month",
            "SELECT Month, ROUND(CORR(Ozone, Temp), 3) FROM air GROUP BY Month",
        ),
        # a kind most values begin with, among only a few kinds ('auto…', 'manual…')
        (
            "gearbox",
            "How many cars have an automatic transmission?",
            "SELECT COUNT(*) FROM cars WHERE trans LIKE 'auto%'",
        ),
        (
            "economy",
            "How did unemployment change from 1975 to 1995?",
            "SELECT year(date), ROUND(AVG(unemploy), 2) FROM economy "
            "WHERE year(date) IN (1975, 1995) GROUP BY 1",
        ),
        # "the most models": a kind of the rows with many values, counted distinct per group
        (
            "makers",
            "Which maker has the most models?",
            "SELECT maker, COUNT(DISTINCT model) AS n FROM autos GROUP BY maker "
            "ORDER BY n DESC LIMIT 1",
        ),
        # grouped by what names the rows, a superlative ranks each one's own best row
        (
            "makers",
            "Which model has the best highway mileage?",
            "SELECT model, MAX(hwy) AS h FROM autos GROUP BY model ORDER BY h DESC LIMIT 1",
        ),
        # "for each combination of A and B" groups by both; "the average professor" is the
        # figure averaged over them
        (
            "paybook",
            "What is the average salary for each combination of rank and sex?",
            "SELECT rank, sex, ROUND(AVG(salary), 2) FROM staff GROUP BY rank, sex",
        ),
        (
            "paybook",
            "How many years of service does the average professor have?",
            "SELECT ROUND(AVG(service), 2) FROM staff WHERE rank = 'Prof'",
        ),
        # a ratio of two columns of each row, then the statistic asked (the mean by default)
        (
            "gems",
            "What is the average price per carat of ideal gems?",
            "SELECT ROUND(AVG(price / carat), 2) FROM gems WHERE cut = 'Ideal'",
        ),
        # "a known X": the rows with a value there
        (
            "gems",
            "How many gems have a known carat?",
            "SELECT COUNT(*) FROM gems WHERE carat IS NOT NULL",
        ),
        (
            "standings",
            "Which team has the best goal difference?",
            "SELECT team, goal_difference FROM league ORDER BY goal_difference DESC LIMIT 1",
        ),
        # the most common value of a number column is its mode, never its maximum
        (
            "paybook",
            "What is the most common service?",
            "SELECT service, COUNT(*) AS n FROM staff GROUP BY service "
            "ORDER BY n DESC, service LIMIT 1",
        ),
        # decades listed side by side, a row each
        (
            "economy",
            "Average psavert in the 1970s and the 1990s",
            "SELECT year(date) // 10 * 10, (year(date) // 10 * 10)::VARCHAR || 's', "
            "ROUND(AVG(psavert), 2) FROM economy WHERE year(date) // 10 * 10 IN (1970, 1990) "
            "GROUP BY 1, 2",
        ),
        # a participle said of people over a whole-number column named for it: its figure
        (
            "economy",
            "How many unemployed were there in March 1990?",
            "SELECT SUM(unemploy) FROM economy WHERE date = DATE '1990-03-01'",
        ),
        # "peak": when the figure was highest
        (
            "economy",
            "When did unemployment peak?",
            "SELECT CAST(date AS VARCHAR), unemploy FROM economy "
            "ORDER BY unemploy DESC, date LIMIT 1",
        ),
        # "in London" of `london_murders`: the place every row is of, no filter
        (
            "murders",
            "How many murders were recorded in London?",
            "SELECT COUNT(*) FROM london_murders",
        ),
        # months with the year said once, both ends kept
        (
            "murders",
            "How many murders took place between June and August 2008?",
            "SELECT COUNT(*) FROM london_murders "
            "WHERE date BETWEEN DATE '2008-06-01' AND DATE '2008-08-31'",
        ),
        # a range of a number: both ends kept
        (
            "murders",
            "How many victims aged 13 to 29 were murdered in 2008?",
            "SELECT COUNT(*) FROM london_murders WHERE age BETWEEN 13 AND 29 AND year(date) = 2008",
        ),
        (
            "murders",
            "How many victims were aged between 20 and 39?",
            "SELECT COUNT(*) FROM london_murders WHERE age BETWEEN 20 AND 39",
        ),
        (
            "gems",
            "How many diamonds have a price between 1000 and 8000?",
            "SELECT COUNT(*) FROM gems WHERE price BETWEEN 1000 AND 8000",
        ),
        # victims are the rows of a list that names them (not days of a calendar)
        (
            "murders",
            "How many of the victims were under 18?",
            "SELECT COUNT(*) FROM london_murders WHERE age < 18",
        ),
        # two columns end with the name; "raw" begins one of them
        (
            "pollsters",
            "In how many polls was Trump ahead of Clinton in the raw numbers?",
            "SELECT COUNT(*) FROM polls WHERE rawpoll_trump > rawpoll_clinton",
        ),
        # ... after the name, or said as a synonym ("unadjusted" for raw), averaged
        (
            "pollsters",
            "What was the average adjusted poll number for Trump?",
            "SELECT ROUND(AVG(adjpoll_trump), 2) FROM polls",
        ),
        (
            "pollsters",
            "What was Clinton's average unadjusted share?",
            "SELECT ROUND(AVG(rawpoll_clinton), 2) FROM polls",
        ),
        # "left-handed": the initial of a one-letter code before the column's name
        (
            "pitches",
            "How many pitches did he throw to left-handed batters?",
            "SELECT COUNT(*) FROM Kershaw WHERE BatterHand = 'L'",
        ),
        # a range with the words that name it after: "between 4 and 6 cylinders"
        (
            "gems",
            "How many diamonds have between 1 and 2.5 carat?",
            "SELECT COUNT(*) FROM gems WHERE carat BETWEEN 1 AND 2.5",
        ),
        # every word of a column's name said, apart: `bookstore_new`
        (
            "textbooks",
            "What is the average price of a new textbook at the bookstore?",
            "SELECT ROUND(AVG(bookstore_new), 2) FROM books",
        ),
        # "different boroughs recorded at least one murder" over a list of murders: the
        # boroughs that appear, counted
        (
            "murders",
            "How many different boroughs recorded at least one murder?",
            "SELECT COUNT(DISTINCT borough) FROM london_murders",
        ),
        # "which month and year": one month of one year
        (
            "murders",
            "Which month and year saw the most murders?",
            "SELECT CAST(DATE_TRUNC('month', date) AS DATE)::VARCHAR, COUNT(*) "
            "FROM london_murders GROUP BY 1 ORDER BY 2 DESC LIMIT 1",
        ),
        # an adjective made from a column's name: "racial group" for `race`
        (
            "racecohort",
            "Which racial group has the highest average weight?",
            "SELECT race, ROUND(AVG(weight), 2) FROM students GROUP BY race "
            "ORDER BY AVG(weight) DESC LIMIT 1",
        ),
        # "how many … in total" counts the rows; "run" only says they took place
        ("swabs", "How many tests were run in total?", "SELECT COUNT(*) FROM covid_testing"),
        # "un-" before a yes/no column's name is its no; it stays with its word when a range
        # said before it is reworded longer
        (
            "coverage",
            "How many women aged between 30 and 40 are uninsured?",
            "SELECT COUNT(*) FROM HealthCover WHERE gender = 'female' AND age BETWEEN 30 AND 40 "
            "AND insurance = 'no'",
        ),
        (
            "coverage",
            "How many people aged between 30 and 40 are not married?",
            "SELECT COUNT(*) FROM HealthCover WHERE age BETWEEN 30 AND 40 AND married = 'no'",
        ),
        (
            "coverage",
            "What is the uninsured rate in each region?",
            "SELECT region, ROUND(100.0 * COUNT(*) FILTER (insurance = 'no') / COUNT(*), 2) "
            "FROM HealthCover GROUP BY 1",
        ),
        # a yes/no column before an irregular plural ("men") is a condition, never a count
        (
            "coverage",
            "How many married men are there?",
            "SELECT COUNT(*) FROM HealthCover WHERE married = 'yes' AND gender = 'male'",
        ),
        # "ethnic" is the adjective of `ethnicity`
        (
            "coverage",
            "What is the average family size for each ethnic group?",
            "SELECT ethnicity, ROUND(AVG(family), 2) FROM HealthCover GROUP BY 1",
        ),
        # "flights" of `bayflights` are its rows, never its flight numbers...
        (
            "skyways",
            "How many flights departed from SFO?",
            "SELECT COUNT(*) FROM bayflights WHERE origin = 'SFO'",
        ),
        (
            "skyways",
            "Which airline operated the most flights?",
            "SELECT carrier, COUNT(*) FROM bayflights GROUP BY 1 ORDER BY 2 DESC LIMIT 1",
        ),
        # "worst" of a figure more of which is worse (a delay): the highest
        (
            "skyways",
            "Which of the three carriers had the worst average departure delay?",
            "SELECT carrier, ROUND(AVG(dep_delay), 2) FROM bayflights GROUP BY 1 "
            "ORDER BY 2 DESC LIMIT 1",
        ),
        # "miles" after a number compares the one column measuring a length with no unit
        (
            "skyways",
            "How many flights covered between 500 and 1,000 miles?",
            "SELECT COUNT(*) FROM bayflights WHERE distance BETWEEN 500 AND 1000",
        ),
        # ... unless different ones are counted
        (
            "skyways",
            "How many different flights are there?",
            "SELECT COUNT(DISTINCT flight) FROM bayflights",
        ),
        # a verb said of the figure beside it ("hit … home runs") is read
        (
            "batting",
            "How many players hit between 20 and 30 home runs?",
            "SELECT COUNT(*) FROM mlb_players_18 WHERE HR BETWEEN 20 AND 30",
        ),
        (
            "batting",
            "Who hit the most home runs?",
            "SELECT name, HR FROM mlb_players_18 ORDER BY HR DESC LIMIT 1",
        ),
        (
            "payroll",
            "What is the salary gap between men and women?",
            "SELECT ROUND(AVG(salary) FILTER (sex = 'Male') - AVG(salary) FILTER "
            "(sex = 'Female'), 2) FROM Salaries",
        ),
        # "how much more do A earn than B": A's figure minus B's
        (
            "payroll",
            "How much more do men earn than women on average?",
            "SELECT ROUND(AVG(salary) FILTER (sex = 'Male') - AVG(salary) FILTER "
            "(sex = 'Female'), 2) FROM Salaries",
        ),
        # "the salary difference between A and B": the figure for each, never a compound
        # of the figure and the column after it; a value after "and" is of the same column
        (
            "payroll",
            "What is the salary difference between discipline A and B?",
            "SELECT ROUND(AVG(salary) FILTER (discipline = 'A') - AVG(salary) FILTER "
            "(discipline = 'B'), 2) FROM Salaries",
        ),
        # a correlation's figures named by an abbreviation (`yrs.service`)
        (
            "payroll",
            "What is the correlation between years of service and salary?",
            'SELECT ROUND(CORR("yrs.service", salary), 3) FROM Salaries',
        ),
        # "city and highway mpg": the head noun both share makes both rates, averaged
        (
            "mileage",
            "Compare city and highway mpg for each class",
            "SELECT class, ROUND(AVG(cty), 2), ROUND(AVG(hwy), 2) FROM mpg GROUP BY 1",
        ),
        # a table named twice ("cars", "mpg") is still the one table whose rows are shown
        (
            "mileage",
            "Show the compact cars that get more than 30 highway mpg",
            "SELECT * FROM mpg WHERE class = 'compact' AND hwy > 30",
        ),
        # "the top three oldest", "the youngest two": a number of rows the superlative ranks
        (
            "contest",
            "List the top three oldest bakers",
            "SELECT baker, age FROM bakers ORDER BY age DESC LIMIT 3",
        ),
        (
            "contest",
            "Who are the youngest two bakers?",
            "SELECT baker, age FROM bakers ORDER BY age LIMIT 2",
        ),
        # "across all episodes": one figure over the rows, though `episode` numbers them
        (
            "broadcast",
            "What was the total number of viewers across all episodes of series 2?",
            "SELECT SUM(viewers) FROM episodes WHERE series = 2",
        ),
        # "by how much did it grow from A to B": the later year's figure minus the earlier's
        (
            "world",
            "By how much did the life expectancy of Chad grow between 2002 and 2007?",
            "SELECT SUM(lifeExp) FILTER (year = 2007) - SUM(lifeExp) FILTER (year = 2002) "
            "FROM stats WHERE country = 'Chad'",
        ),
        # storms observed over many rows: a year ranked by its hurricanes counts storms, never
        # the sightings; a preposition before "which" asks the same
        (
            "tracks",
            "In which year were the most hurricanes recorded?",
            "SELECT year, COUNT(DISTINCT name) FROM storms WHERE status = 'hurricane' "
            "GROUP BY 1 ORDER BY 2 DESC LIMIT 1",
        ),
        # "in May and in June": one preposition for both, two months side by side
        (
            "weather",
            "What was the average temperature in May and in June?",
            "SELECT Month, ROUND(AVG(Temp), 2) FROM air WHERE Month IN (5, 6) GROUP BY 1",
        ),
        # "unbelted": the other of seatbelt's two values; "death rate" of each, side by side
        (
            "wrecks",
            "Compare the death rate of belted and unbelted occupants",
            "SELECT seatbelt, ROUND(100.0 * COUNT(*) FILTER (dead = 'dead') / COUNT(*), 2) "
            "FROM crashes GROUP BY 1",
        ),
        # "Mike Trout" said first name first, stored as `Surname, Initial` (said)
        (
            "batting",
            "How many home runs did Mike Trout hit?",
            "SELECT HR FROM mlb_players_18 WHERE name = ' Trout, M'",
        ),
        # the oldest of a year is its earliest
        ("wrecks", "What is the oldest vehicle model year?", "SELECT MIN(yearVeh) FROM crashes"),
        # "typhoid cases" are the `cases` of typhoid rows, never a count of the table's rows
        (
            "fevers",
            "How many typhoid cases were there?",
            "SELECT SUM(cases) FROM TyphoidCases1900 WHERE illness = 'Typhoid'",
        ),
        (
            "fevers",
            "Which month had the most typhoid cases?",
            "SELECT strftime(day, '%Y-%m-01'), SUM(cases) FROM TyphoidCases1900 "
            "WHERE illness = 'Typhoid' GROUP BY 1 ORDER BY 2 DESC LIMIT 1",
        ),
        # the average per day: each day's total (both wards), averaged over the days, one figure
        (
            "fevers",
            "What was the average number of typhoid cases per day?",
            "SELECT ROUND(AVG(n), 2) FROM (SELECT day, SUM(cases) AS n FROM TyphoidCases1900 "
            "WHERE illness = 'Typhoid' GROUP BY day)",
        ),
        (
            "fevers",
            "On average, how many typhoid cases were there per day?",
            "SELECT ROUND(AVG(n), 2) FROM (SELECT day, SUM(cases) AS n FROM TyphoidCases1900 "
            "WHERE illness = 'Typhoid' GROUP BY day)",
        ),
        (
            "fevers",
            "What was the average monthly number of cases?",
            "SELECT ROUND(AVG(n), 2) FROM (SELECT date_trunc('month', day), SUM(cases) AS n "
            "FROM TyphoidCases1900 GROUP BY 1)",
        ),
        # "dysentery" meets the stored misspelling `Dysentry` (said)
        (
            "fevers",
            "What was the total number of cases of dysentery?",
            "SELECT SUM(cases) FROM TyphoidCases1900 WHERE illness = 'Dysentry'",
        ),
        ("trainers", "How many miles did the runner cover in Asics?", "SELECT 12.5"),
        (
            "tremors",
            "How many people died in Chile?",
            "SELECT SUM(deaths) FROM quakes_log WHERE region = 'Chile'",
        ),
        # a brand said by name, stored as its initials
        (
            "sodas",
            "What percentage of purchases were Fizz Pop?",
            "SELECT ROUND(100.0 * COUNT(*) FILTER (Bought = 'FP') / COUNT(*), 2) FROM purchases",
        ),
        # a brand named where its code ends the columns' names: that column, no filter
        (
            "juices",
            "What was the average price of Blue Farm?",
            "SELECT ROUND(AVG(PriceBF), 2) FROM juice",
        ),
        (
            "juices",
            "What was the biggest discount ever offered on Sunny Grove?",
            "SELECT MAX(DiscSG) FROM juice",
        ),
        # the purchases are the rows, never the two codes of what was bought
        (
            "juices",
            "How many purchases were made in each store?",
            "SELECT StoreID, COUNT(*) FROM juice GROUP BY StoreID ORDER BY 2 DESC, 1",
        ),
        # `WeekofPurchase`: camelCase with its joining word in lower case
        (
            "juices",
            "Which week had the most purchases?",
            "SELECT WeekofPurchase, COUNT(*) FROM juice GROUP BY 1 ORDER BY 2 DESC LIMIT 1",
        ),
        # a genre listed among others counts too
        (
            "reviews",
            "What is the average rating of dramas?",
            "SELECT ROUND(AVG(rating), 2) FROM ratings_log WHERE genres LIKE '%Drama%'",
        ),
        # ratings given, one a row; never the highest rating
        (
            "reviews",
            "Which movie has the most ratings?",
            "SELECT movieId, COUNT(*) FROM ratings_log GROUP BY 1 ORDER BY 2 DESC LIMIT 1",
        ),
        (
            "reviews",
            "Which user has rated the most movies?",
            "SELECT userId, COUNT(*) FROM ratings_log GROUP BY 1 ORDER BY 2 DESC LIMIT 1",
        ),
        (
            "reviews",
            "How many people rated movies?",
            "SELECT COUNT(DISTINCT userId) FROM ratings_log",
        ),
        # each professor once, whatever number of courses they taught
        (
            "lecturers",
            "What is the average age of the professors?",
            "SELECT ROUND(AVG(age), 2) FROM (SELECT DISTINCT prof_id, age FROM courses)",
        ),
        # a column named "count not working": the negation is its name, the count its sum
        (
            "alumni",
            "How many students were not working in 2014?",
            "SELECT SUM(count_not_working) FROM outcomes WHERE year = 2014",
        ),
        (
            "alumni",
            "How many students were working in 2014?",
            "SELECT SUM(count_working) FROM outcomes WHERE year = 2014",
        ),
        # `earnings_med`: "median earnings" in the order people say it
        (
            "alumni",
            "Which school had the highest median earnings in 2014?",
            "SELECT inst_name, AVG(earnings_med) FROM outcomes WHERE year = 2014 "
            "GROUP BY 1 ORDER BY 2 DESC LIMIT 1",
        ),
        # the rows a question is about, said first
        (
            "payroll",
            "Among women, which rank has the highest average salary?",
            "SELECT rank, ROUND(AVG(salary), 2) FROM Salaries WHERE sex = 'Female' "
            "GROUP BY 1 ORDER BY 2 DESC LIMIT 1",
        ),
        # "more" without "than" after "which": the one with the most
        (
            "payroll",
            "Which discipline has more professors?",
            "SELECT discipline, COUNT(*) FROM Salaries WHERE rank = 'Prof' GROUP BY 1 "
            "ORDER BY 2 DESC LIMIT 1",
        ),
        # a year said of a table of one row a year: that row's own figure
        (
            "yearbook",
            "What was the population in 1900?",
            'SELECT "population.K" FROM yearly WHERE Year = 1900',
        ),
        # a change asked as a percentage, and as a ratio
        (
            "yearbook",
            "By what percentage did CPI rise from 1970 to 1980?",
            "SELECT ROUND(100.0 * (82.4 - 38.8) / 38.8, 2)",
        ),
        (
            "yearbook",
            "How many times larger was real GDP per capita in 2000 than in 1950?",
            "SELECT ROUND(46000 / 15000, 2)",
        ),
        # the first year past a level (the population kept in thousands)
        (
            "yearbook",
            "In what year did the population first go over 200 million?",
            'SELECT MIN(Year) FROM yearly WHERE "population.K" > 200000',
        ),
        # the patients are the rows of the table keyed once by their id
        (
            "trial",
            "How many of the patients are women?",
            "SELECT COUNT(*) FROM patients WHERE sex = 'f'",
        ),
        (
            "trial",
            "How old were the patients on average?",
            "SELECT ROUND(AVG(age), 2) FROM patients",
        ),
        # whole seconds since 1970 read as the moment they are
        (
            "clicks",
            "How many purchases were made in 2016?",
            "SELECT COUNT(*) FROM purchases WHERE year(epoch_ms(created_utc * 1000)) = 2016",
        ),
        # "widest range": the largest minus the smallest; of names, how many kinds
        (
            "payroll",
            "Which rank has the widest range of salaries?",
            "SELECT rank, MAX(salary) - MIN(salary) FROM Salaries GROUP BY 1 ORDER BY 2 DESC "
            "LIMIT 1",
        ),
        (
            "mileage",
            "Which manufacturer has the widest range of models?",
            "SELECT manufacturer, COUNT(DISTINCT model) FROM mpg GROUP BY 1 ORDER BY 2 DESC "
            "LIMIT 1",
        ),
        # "which five": how many to show, never the storm named Five
        (
            "gales",
            "Which five storms had the lowest pressure?",
            "SELECT name, MIN(pressure) FROM storm_lows GROUP BY 1 ORDER BY 2 LIMIT 5",
        ),
        # "when" of a peak over rows kept by year, month, day and hour: the row, whole
        (
            "sightings",
            "When did Dora reach its peak wind speed?",
            "SELECT * FROM storms WHERE name = 'Dora' ORDER BY wind DESC LIMIT 1",
        ),
        # "in which year were …": the year ranked by the figure, over years kept as numbers
        (
            "citymonths",
            "In which year were sales in Austin highest?",
            "SELECT year, SUM(sales) FROM city_months WHERE city = 'Austin' GROUP BY 1 "
            "ORDER BY 2 DESC LIMIT 1",
        ),
        # "on average" said before the grouping
        (
            "mileage",
            "What is the highway mileage on average by class?",
            "SELECT class, ROUND(AVG(hwy), 2) FROM mpg GROUP BY 1 ORDER BY 2 DESC",
        ),
        # "change with" groups by what follows; no "having more than 0 years"
        (
            "payroll",
            "How does average salary change with years of service?",
            'SELECT "yrs.service", ROUND(AVG(salary), 2) FROM Salaries GROUP BY 1 ORDER BY 2 DESC',
        ),
        # a yes/no question between two, answered by both figures side by side
        (
            "payroll",
            "Is the average salary higher in discipline A or B?",
            "SELECT discipline, ROUND(AVG(salary), 2) FROM Salaries GROUP BY 1 ORDER BY 2 DESC",
        ),
        # a breakdown named by a column: the rows counted in each of its values
        (
            "payroll",
            "What is the gender breakdown of full professors?",
            "SELECT sex, COUNT(*) FROM Salaries WHERE rank = 'Prof' GROUP BY 1 ORDER BY 2 DESC",
        ),
        # "how many times more A than B": the first count over the second
        (
            "payroll",
            "How many times more men than women are there?",
            "SELECT ROUND(1.0 * COUNT(*) FILTER (sex = 'Male') "
            "/ COUNT(*) FILTER (sex = 'Female'), 2) FROM Salaries",
        ),
        # two limits of one range, the name said once after the second
        (
            "payroll",
            "What is the average salary with at least 20 but fewer than 30 years of service?",
            'SELECT ROUND(AVG(salary), 2) FROM Salaries WHERE "yrs.service" >= 20 '
            'AND "yrs.service" < 30',
        ),
        # the second limit of the column the first was of
        (
            "payroll",
            "How many earn more than 79000 and less than 140000?",
            "SELECT COUNT(*) FROM Salaries WHERE salary > 79000 AND salary < 140000",
        ),
        # "rank X by Y": Y for each X, highest first
        (
            "payroll",
            "Rank the disciplines by median salary",
            "SELECT discipline, MEDIAN(salary) FROM Salaries GROUP BY 1 ORDER BY 2 DESC",
        ),
        # "how many people were unemployed": the whole-number column counting them
        (
            "economy",
            "How many people were unemployed in March 1975?",
            "SELECT SUM(unemploy) FROM economy WHERE date = DATE '1975-03-01'",
        ),
        # the first reading of a period, never its smallest
        (
            "economy",
            "What was the savings rate at the start of 1980?",
            "SELECT CAST(date AS VARCHAR), unemploy, psavert FROM economy "
            "WHERE date = DATE '1980-01-01'",
        ),
        # "the first month with …" over dated rows: the earliest date whose row meets it
        (
            "economy",
            "What was the first month with unemployment above 1450?",
            "SELECT CAST(MIN(date) AS VARCHAR) FROM economy WHERE unemploy > 1450",
        ),
        # a change named by its noun: the later year's figure minus the earlier's
        (
            "economy",
            "What was the savings rate growth from 1980 to 1990?",
            "SELECT ROUND(AVG(psavert) FILTER (year(date) = 1990) "
            "- AVG(psavert) FILTER (year(date) = 1980), 2) FROM economy",
        ),
        # "which A and B": both grouped together, the pair ranked
        (
            "mileage",
            "Which combination of class and manufacturer has the highest average hwy?",
            "SELECT class, manufacturer, ROUND(AVG(hwy), 2) FROM mpg GROUP BY 1, 2 "
            "ORDER BY 3 DESC LIMIT 1",
        ),
        # "not" before a value: every other value
        (
            "mileage",
            "What is the average hwy of cars that are not compact?",
            "SELECT ROUND(AVG(hwy), 2) FROM mpg WHERE class <> 'compact'",
        ),
        # "have no <text column>": none recorded
        (
            "licences",
            "How many pets have no name?",
            "SELECT COUNT(*) FROM pet_licenses WHERE animal_name IS NULL",
        ),
        # a yes/no question between two, of a rate: both rates side by side
        (
            "voyage",
            "Is the survival rate higher in 1st or 3rd class?",
            "SELECT passengerClass, ROUND(100.0 * COUNT(*) FILTER (survived = 'yes') / COUNT(*), 2)"
            " FROM passengers WHERE passengerClass IN ('1st', '3rd') GROUP BY 1",
        ),
        # "shows up most often": in the most rows
        (
            "mileage",
            "Which class shows up most often?",
            "SELECT class, COUNT(*) FROM mpg GROUP BY 1 ORDER BY 2 DESC LIMIT 1",
        ),
        # lacking what a yes/no column records is its no
        (
            "cabs",
            "What is the average distance of rides without a tip?",
            "SELECT ROUND(AVG(distance), 2) FROM taxi WHERE tip = 'no'",
        ),
        ("cabs", "How many trips had no tip?", "SELECT COUNT(*) FROM taxi WHERE tip = 'no'"),
        (
            "cabs",
            "How does the average distance of rides with a tip compare with rides without one?",
            "SELECT tip, ROUND(AVG(distance), 2) FROM taxi GROUP BY 1",
        ),
        (
            "licences",
            "How many pets have no insurance?",
            "SELECT COUNT(*) FROM pet_licenses WHERE insurance = 'no'",
        ),
        (
            "crashes",
            "How many occupants were without a seatbelt?",
            "SELECT COUNT(*) FROM nass WHERE seatbelt = 'none'",
        ),
        # a rate of a value: the other conditions pick the rows it is a rate of
        (
            "crashes",
            "What was the death rate for drivers?",
            "SELECT ROUND(100.0 * COUNT(*) FILTER (WHERE dead = 'dead') / COUNT(*), 2) FROM nass "
            "WHERE occRole = 'driver'",
        ),
        # "by airbag": the column `airbag`, never its value 'airbag'
        (
            "crashes",
            "What was the death rate by airbag?",
            "SELECT airbag, ROUND(100.0 * COUNT(*) FILTER (WHERE dead = 'dead') / COUNT(*), 2) "
            "FROM nass GROUP BY 1",
        ),
        (
            "crashes",
            "What was the death rate for occupants with an airbag compared with those without one?",
            "SELECT airbag, ROUND(100.0 * COUNT(*) FILTER (WHERE dead = 'dead') / COUNT(*), 2) "
            "FROM nass GROUP BY 1",
        ),
        # a column named by its adjective: "net time" is `net`, the fastest of it the lowest
        ("race", "What was the average net time?", "SELECT ROUND(AVG(net), 2) FROM TenMileRace"),
        (
            "race",
            "Which state had the fastest average net time?",
            "SELECT state, ROUND(AVG(net), 2) FROM TenMileRace GROUP BY 1 ORDER BY 2 LIMIT 1",
        ),
        # a quarter written after its year is read as the date it starts
        (
            "stays",
            "What were the total takings of Victoria in 2015?",
            "SELECT SUM(Takings) FROM aus_stays WHERE State = 'Victoria' AND Date LIKE '2015%'",
        ),
        (
            "stays",
            "Which state or territory had the highest average occupancy over the whole period?",
            "SELECT State, ROUND(AVG(Occupancy), 2) FROM aus_stays GROUP BY 1 ORDER BY 2 DESC "
            "LIMIT 1",
        ),
        # the rows of a table named in the singular
        (
            "planecrash",
            "How many crashes happened during landing?",
            "SELECT COUNT(*) FROM AirCrash WHERE Phase = 'landing'",
        ),
        (
            "planecrash",
            "What is the median number of deaths in a crash?",
            "SELECT MEDIAN(Fatalities) FROM AirCrash",
        ),
        # a month of the year, all years together, read from the date: number and name
        (
            "planecrash",
            "Which month of the year has seen the most crashes?",
            "SELECT month(date), monthname(date), COUNT(*) FROM AirCrash GROUP BY 1, 2 "
            "ORDER BY 3 DESC, 1 LIMIT 1",
        ),
        (
            "planecrash",
            "On which day of the week did the most crashes happen?",
            "SELECT isodow(date), dayname(date), COUNT(*) FROM AirCrash GROUP BY 1, 2 "
            "ORDER BY 3 DESC, 1 LIMIT 1",
        ),
        # a decade by its first year and as people say it
        (
            "planecrash",
            "Compare the average deaths per crash in the 1990s with the 2010s",
            "SELECT year(date) // 10 * 10, (year(date) // 10 * 10)::VARCHAR || 's', "
            "ROUND(AVG(Fatalities), 2) FROM AirCrash WHERE year(date) BETWEEN 1990 AND 1999 "
            "OR year(date) BETWEEN 2010 AND 2019 GROUP BY 1, 2",
        ),
        # a multi-word value said by its initials, written in capitals
        (
            "territories",
            "In how many quarters was occupancy in the ACT above 70?",
            "SELECT COUNT(*) FROM aus_occ WHERE State = 'Australian Capital Territory' "
            "AND Occupancy > 70",
        ),
        # quarters stored as '2015 Q1' are shown as stored
        (
            "territories",
            "In which quarter did NSW have its highest occupancy?",
            "SELECT Date, MAX(Occupancy) FROM aus_occ WHERE State = 'New South Wales' "
            "GROUP BY 1 ORDER BY 2 DESC LIMIT 1",
        ),
        # a year said before the figure is its period
        (
            "stays",
            "Compare 2015 takings in Victoria and Tasmania",
            "SELECT State, SUM(Takings) FROM aus_stays WHERE Date LIKE '2015%' GROUP BY 1",
        ),
        # "the Austin office": the location said whole; "work" is no location's first word
        (
            "paysheet",
            "How many respondents work in the Austin office?",
            "SELECT COUNT(*) FROM blizzard_pay WHERE location = 'Austin'",
        ),
        # `percent_incr` is the raise; `current_salary` the salary
        (
            "paysheet",
            "What was the average raise for each location?",
            "SELECT location, ROUND(AVG(percent_incr), 2) FROM blizzard_pay GROUP BY 1",
        ),
        (
            "paysheet",
            "What is the median salary of a Software Engineer?",
            "SELECT MEDIAN(current_salary) FROM blizzard_pay "
            "WHERE current_title = 'Software Engineer'",
        ),
        (
            "paysheet",
            "What's the median annual salary of a Software Engineer?",
            "SELECT MEDIAN(current_salary) FROM blizzard_pay "
            "WHERE current_title = 'Software Engineer' AND salary_type = 'year'",
        ),
        # "yearly" beside a change between two years: one figure, the change asked
        (
            "stays",
            "By what percentage did Victoria's yearly takings grow from 2014 to 2015?",
            "SELECT ROUND(100.0 * (SUM(Takings) FILTER (WHERE Date LIKE '2015%') - "
            "SUM(Takings) FILTER (WHERE Date LIKE '2014%')) / SUM(Takings) FILTER "
            "(WHERE Date LIKE '2014%'), 2) FROM aus_stays WHERE State = 'Victoria'",
        ),
        # "which job title": the column, never its junk value 'Title'
        (
            "paysheet",
            "Which job title has the highest average salary?",
            "SELECT current_title, ROUND(AVG(current_salary), 2) FROM blizzard_pay GROUP BY 1 "
            "ORDER BY 2 DESC LIMIT 1",
        ),
        # groups kept by how many rows they have
        (
            "ratings",
            "Which movie with at least 3 ratings has the lowest average rating?",
            "SELECT title, ROUND(AVG(rating), 2) FROM movie_ratings GROUP BY 1 "
            "HAVING COUNT(*) >= 3 ORDER BY 2 LIMIT 1",
        ),
        (
            "ratings",
            "Among movies with more than 2 ratings, which has the highest average rating?",
            "SELECT title, ROUND(AVG(rating), 2) FROM movie_ratings GROUP BY 1 "
            "HAVING COUNT(*) > 2 ORDER BY 2 DESC LIMIT 1",
        ),
        (
            "ratings",
            "Which movies have at least 2 ratings?",
            "SELECT title, COUNT(*) FROM movie_ratings GROUP BY 1 HAVING COUNT(*) >= 2",
        ),
        (
            "ratings",
            "How many users have 3 or more ratings?",
            "SELECT COUNT(*) FROM (SELECT userId FROM movie_ratings GROUP BY 1 "
            "HAVING COUNT(*) >= 3)",
        ),
        (
            "inspections",
            "Which restaurants were inspected more than 35 times?",
            "SELECT business_name, COUNT(*) FROM restaurant_inspections GROUP BY 1 "
            "HAVING COUNT(*) > 35",
        ),
        # "the total number of episodes": a count of them, never their numbers added up
        ("broadcast", "What was the total number of episodes?", "SELECT COUNT(*) FROM episodes"),
        # "which discipline has more female faculty": the one with the most
        (
            "payroll",
            "Which discipline has more female faculty?",
            "SELECT discipline, COUNT(*) FROM Salaries WHERE sex = 'Female' GROUP BY 1 "
            "ORDER BY 2 DESC LIMIT 1",
        ),
        # "the 3 highest salaries": the rows holding them, whole
        (
            "payroll",
            "What are the 3 highest salaries?",
            "SELECT * FROM Salaries ORDER BY salary DESC LIMIT 3",
        ),
        # "the peak number of": its highest
        (
            "fred",
            "What was the peak number of unemployed people?",
            "SELECT MAX(unemploy) FROM economics",
        ),
        # "first above" a level, said with no verb
        (
            "fred",
            "When was unemployment first over 7800?",
            "SELECT CAST(MIN(date) AS VARCHAR) FROM economics WHERE unemploy > 7800",
        ),
        # "model year": the year of the model, a compound whose head is the time
        (
            "autos",
            "Which model year had better average city mileage?",
            "SELECT year, ROUND(AVG(cty), 2) FROM mpg GROUP BY 1 ORDER BY 2 DESC LIMIT 1",
        ),
        # a range said of the things, its unit naming the column
        (
            "jewels",
            "What is the average price of diamonds between 1 and 2 carats?",
            "SELECT ROUND(AVG(price), 2) FROM diamonds WHERE carat BETWEEN 1 AND 2",
        ),
        # one capital letter beside its column's name is a value
        (
            "jewels",
            "What is the median price of J color diamonds?",
            "SELECT MEDIAN(price) FROM diamonds WHERE color = 'J'",
        ),
        # a count for each group, averaged over the groups: one figure
        (
            "ratings",
            "What is the average number of ratings per user?",
            "SELECT ROUND(COUNT(*) * 1.0 / COUNT(DISTINCT userId), 2) FROM movie_ratings",
        ),
        (
            "ratings",
            "On average, how many ratings does a movie get?",
            "SELECT ROUND(COUNT(*) * 1.0 / COUNT(DISTINCT title), 2) FROM movie_ratings",
        ),
        (
            "jewels",
            "How many diamonds have color D or E?",
            "SELECT color, COUNT(*) FROM diamonds WHERE color IN ('D', 'E') GROUP BY 1",
        ),
        # "traffic" is a value here, never a deed done to the stops
        (
            "stops",
            "How many of the stops were traffic stops?",
            "SELECT COUNT(*) FROM MplsStops WHERE problem = 'traffic'",
        ),
        # "for publishers with at least 3 journals": each publisher, the kept ones
        (
            "periodicals",
            "For publishers with at least 3 journals, what's the average price?",
            "SELECT publisher, ROUND(AVG(price), 2) FROM Journals GROUP BY 1 HAVING COUNT(*) >= 3",
        ),
        # "cited the most": the most citations
        (
            "periodicals",
            "Which journal has been cited the most?",
            "SELECT title, MAX(citations) FROM Journals GROUP BY 1 ORDER BY 2 DESC LIMIT 1",
        ),
        (
            "planecrash",
            "How many people were killed in 1999?",
            "SELECT SUM(Fatalities) FROM AirCrash WHERE Year = 1999",
        ),
        # "got no raise": none of the number
        (
            "paysheet",
            "How many people got no raise at all?",
            "SELECT COUNT(*) FROM blizzard_pay WHERE percent_incr = 0",
        ),
        # "not a <value>": every other value
        (
            "planecrash",
            "How many crashes were not a weather crash?",
            "SELECT COUNT(*) FROM AirCrash WHERE Cause <> 'weather'",
        ),
        # a table with no date, read through the one table it joins that has one
        (
            "showdates",
            "How many episodes aired each year?",
            "SELECT year(r.uk_airdate), COUNT(*) FROM episodes e JOIN ratings r "
            "USING (series, episode) GROUP BY 1",
        ),
        # "per episode" where `episode` numbers each row: the rows' own figure, averaged
        (
            "showdates",
            "What is the average number of viewers per episode?",
            "SELECT ROUND(AVG(viewers_7day), 2) FROM ratings",
        ),
        # "more than 125,000 residents in 2021": the 2021 population column
        (
            "censuses",
            "How many towns had more than 125,000 residents in 2021?",
            "SELECT COUNT(*) FROM towny WHERE population_2021 > 125000",
        ),
        # a share whose part is a period
        (
            "savings",
            "What percentage of the months were in the 1970s?",
            "SELECT ROUND(100.0 * COUNT(*) FILTER (WHERE year(date) BETWEEN 1970 AND 1979) "
            "/ COUNT(*), 2) FROM econ",
        ),
        # "the first year" over dated rows: the first date's year
        (
            "fred",
            "In what year did unemployment first exceed 7800?",
            "SELECT MIN(year(date)) FROM economics WHERE unemploy > 7800",
        ),
        (
            "fred",
            "In which year was personal consumption expenditure first above 4500?",
            "SELECT MIN(year(date)) FROM economics WHERE pce > 4500",
        ),
        # "above the average": the column's own average over every row
        (
            "autos",
            "How many cars have city mpg above the average?",
            "SELECT COUNT(*) FROM mpg WHERE cty > (SELECT AVG(cty) FROM mpg)",
        ),
        (
            "jewels",
            "What share of diamonds cost more than the average price?",
            "SELECT ROUND(100.0 * COUNT(*) FILTER (WHERE price > (SELECT AVG(price) FROM "
            "diamonds)) / COUNT(*), 2) FROM diamonds",
        ),
        # "the difference … between 4 and 8 cylinder cars": two groups, the unit said once
        (
            "motors",
            "What is the difference in average mpg between 4 and 8 cylinder cars?",
            "SELECT ROUND(AVG(mpg) FILTER (WHERE cyl = 4) - AVG(mpg) FILTER (WHERE cyl = 8), 2) "
            "FROM cars",
        ),
    ],
)
def test_question_shapes_on_new_tables(harbour, db: str, question: str, sql: str) -> None:
    session, path = harbour[db]
    run = session.ask(question)
    assert rows(run) == truth(path, sql), run.sql
    assert run.trust_state in (TrustState.GROUNDED, TrustState.REVIEW_REQUIRED)


@pytest.mark.parametrize(
    ("db", "question", "said"),
    [
        ("fleet", "How many ships have 3 masts?", "each row of vessels counted as one ship"),
        ("fleet", "How long is the Cutty Sark?", "the length_m of the row named Cutty Sark"),
        ("sensors", "How many sensors are there?", "readings counted by distinct name"),
        ("monthly", "Which city had the most sales?", "sales added up"),
        # one table: rows, or distinct values? Counted as values, and said
        ("fleet", "How many home ports are there?", "counted the distinct values of home_port"),
        # two tables list countries: which one was counted is said
        ("world", "How many countries are there?", "of codes; stats also has country"),
        # a comparison nothing can meet: the column's range is said (another unit?)
        ("fleet", "How many ships are longer than 5000?", "length_m ranges from 11.20 to 114.50"),
        # a word read as a stored word cut short is said
        (
            "gearbox",
            "What is the total horsepower of the Mercedes cars?",
            "'Mercedes' read as model beginning with Merc",
        ),
        # one month's own figure, when nothing else a row could be of is left open
        (
            "monthly",
            "What were the Dallas sales in February 2023?",
            "the sales of that period (the largest, if several rows fall in it)",
        ),
        ("jobs", "How many electoral votes does Florida have?", "electoral_votes added up"),
        # two dates and nothing says which: the one read is said
        ("polls", "How many polls were there in May 2016?", "dates read from startdate"),
        (
            "arrests",
            "Average number of police checks for each skin colour",
            "'skin colour' read as colour",
        ),
        (
            "jobs",
            "How many senior professional occupations are there?",
            "'senior professional' read as type = prof",
        ),
        ("station", "Which day had the highest ozone?", "each row of daily read as one day"),
        ("mini", "How many chicks are there?", "counted the distinct values of Chick"),
        ("dealer", "How many cars cost more than $30,000?", "30,000 read as 30"),
        # a scale word: "10 million" over a column counted in thousands
        (
            "labour",
            "How many months had more than 10 million unemployed?",
            "10,000,000 read as 10,000",
        ),
        # a value that is the word's stem and a short ending (Latin names of kinds)
        ("crime", "How many rodents are there?", "'rodents' read as order = Rodentia"),
        # one-letter codes read from the initials of the words before the column's name
        ("crime", "Average hwy of front-wheel drive vehicles", "read as drv = f"),
        ("voyage", "How many children are under 12?", "read as age"),
        # a bare number no row meets is taken as written, and the column's range said
        ("dealer", "How many cars cost more than 30000?", "Price ranges from 8.40 to 37.70"),
        # "days above 85 degrees": the days are the rows, degrees a temperature; said
        ("station", "What percentage of days were above 85 degrees?", "'degrees' read as Temp"),
        # a word found inside a run-together name ("state" in Outstate) is a guess, said
        ("survey", "Average state by college", "'state' read as Outstate"),
        # a season across two years, kept under the year it began
        (
            "league",
            "How many matches were played in the 1990/91 season?",
            "the 1990/91 season read as the year 1990 (the year it began)",
        ),
        ("housing", "Average median sale price by city", "'median sale price' read as median"),
        (
            "outbreaks",
            "Which state had the most measles cases per 100,000 people?",
            "read as count × 100,000 / population",
        ),
        ("skies", "How many days had rain?", "rows whose events lists Rain, alone or among"),
        # "the temperature" beside a high, an average and a low: the average read, said
        (
            "thermo",
            "On how many days did the temperature in Mumbai reach 90 degrees or more?",
            "'temperature' read as avg_temp (also high_temp, low_temp)",
        ),
        # months of two years kept apart beside a `month` column: the other reading is said
        (
            "skies",
            "Average temperature in Chicago by month",
            "for the months of the year together (the month column), ask per month of the year",
        ),
        # a 0/1 column read as 1 for the winner: the coding is the data's to confirm
        ("bakers", "Who won series 3?", "'won' read as series_winner = 1"),
        # a word beginning some media and said inside others: the rows it begins, said
        ("artworks", "How many screenprints were made after 2000?", "'screenprints' read as"),
        # one title among names nearly one per row is an odd part of the whole: said
        (
            "courses",
            "What percentage of the courses are independent study?",
            "the part read as the rows whose course is Independent Study",
        ),
        ("prizes", "How many prizes has Marie Curie won?", "'won' read as every row"),
        # groups and counted things in a list and in a sample of it: the larger counted, said
        (
            "courses",
            "Which subject offers the most courses?",
            "counted the rows of fall_list (the largest); textbooks also has them",
        ),
        # "across the states": one figure over all of them, said ("by state" gives each)
        (
            "roads",
            "What was the average beer tax across the states in 1982?",
            "'across the states' read as one figure over all of them",
        ),
        # an -ing word the data names nothing with, before a number's name, is said
        (
            "stocks",
            "What was the total trading volume in October 2008?",
            "'trading volume' read as volume",
        ),
        (
            "stocks",
            "What was the close on December 31, 2009?",
            "the close of that period",
        ),
        (
            "roads",
            "Which state had the most traffic deaths in New York and California in 1985?",
            "'traffic deaths' read as Fatalities.fatal",
        ),
        # rows that are city-months are not homes: no row count stands in for them, but the
        # column counting what was sold does, said
        ("monthly", "How many homes were sold?", "'homes sold' read as sales"),
        # a bin of many ('other') is no company: left out of a ranking, said
        (
            "cabs",
            "Which taxi company made the most trips?",
            "'other' left out of the ranking",
        ),
        # "finished the race", "sent": what every finisher did
        (
            "race",
            "Which state sent the most runners?",
            "each row of TenMileRace counted as one runner",
        ),
        # months kept as text ('Jan') with no date: grouped as written, said
        (
            "cabs",
            "How many trips were taken in each month?",
            "each month as written in the data (text, not a date)",
        ),
        # a key by name holding two codes over many rows: the tests are the rows (each holds
        # one of the two codes), never the two codes; a reading, said
        (
            "labtests",
            "Break down the number of tests by payor group",
            "each row of covid_testing counted as one test (test_id holds",
        ),
        # "developers" ends three columns' names: the rows (respondents), never one of them
        (
            "devsurvey",
            "What is the average salary of developers in Germany?",
            "each row of survey counted as one developer",
        ),
        # one measure over windows of time: the shortest, said
        (
            "tv",
            "Average viewers by series",
            "'viewers' read as viewers_7day, the shortest window (viewers_28day also",
        ),
        # the whole and the part are kinds of one column: the whole is every row, said
        (
            "towns",
            "What percentage of the municipalities are villages?",
            "'municipality' read as every row of towny",
        ),
        # the thing asked about is a kind of a type column and may be every row: said
        (
            "ontario",
            "Which municipality has the largest population?",
            "'municipality' read as the rows whose csd_type is municipality",
        ),
        # after another kind, the plural may name every row: the kind is read, and said
        (
            "towns",
            "How many single-tier municipalities are there?",
            "'municipalities' read as the rows whose csd_type is municipality",
        ),
        # the latest of the rows is when the last was made
        ("posts", "When was the latest tweet?", "'latest tweet' read as the latest created_at"),
        # a percentage said of a column whose name says no unit: 10 may be 0.10
        ("economy", "How many months had a psavert above 10%?", "psavert > 10"),
        # people over rows that each hold a count of them: the count, added up
        ("prisons", "How many women were in prison in March 2015?", "counted by adding up"),
        # a level ranked over groups by its adjective: the mean, said
        ("climate", "Which city is the hottest?", "'hottest' read as the highest average"),
        # one figure of the row a superlative picks: that row, never two separate maxima
        (
            "paybook",
            "How much service does the highest paid professor have?",
            "read as the row with the highest salary",
        ),
        # any superlative before a participle: "the longest serving" ranks by service
        (
            "paybook",
            "What is the salary of the longest serving professor?",
            "read as the row with the highest service",
        ),
        # the first month of the data is its earliest row, never a figure for every month
        (
            "economy",
            "What was the unemployment in the first month of the data?",
            "the earliest row by date",
        ),
        # a share of days over rows of Month and Day: rows counted, never Day numbers added
        (
            "weather",
            "What percentage of days in August had a temperature above 85?",
            "read as one day",
        ),
        # "how did X change from A to B": X at each end, side by side; a series of monthly
        # readings is averaged over each year, never added up
        ("economy", "How did unemployment change from 1975 to 1995?", "read as the unemployment"),
        ("economy", "What was the psavert in the last month of the data?", "the latest row"),
        # "price per carat" is each row's price divided by its carat, never a group per carat
        ("gems", "What is the median price per carat?", "divided by its carat"),
        # "how does X vary by Y" with no figure named: the mean, said
        ("paybook", "How does salary vary by rank?", "read as the average salary"),
        # a gap with no aggregate said: the averages' difference, as pay gaps are told
        ("payroll", "What is the salary gap between men and women?", "difference of the average"),
        # which end "worst" means is a judgement: said
        (
            "skyways",
            "Which carrier had the worst average departure delay?",
            "'worst' read as the highest dep_delay",
        ),
        # a unit no column states: the figures as stored, the unit left unchecked and said
        (
            "skyways",
            "What was the average departure delay in minutes?",
            "shown as stored, not converted",
        ),
        (
            "race",
            "What was the average net time for men and for women, in minutes?",
            "the data does not say which unit",
        ),
        ("fevers", "How many cases of dysentery were there?", "'dysentery' read as illness"),
        # "professors" names `Prof` and `AsstProf` alike: the one value only a guess, said
        ("payroll", "How many female professors are there?", "'professors' read as rank = Prof"),
        # groups that are no shoe (NULL, '*') shown as they are, said
        ("trainers", "What is the average miles for each shoe?", "rows with no Shoe recorded"),
        # "the runner", named nowhere in the data: the one the log is about (said)
        ("trainers", "How many miles did the runner cover?", "'the runner' read as the one"),
        ("sodas", "How many purchases were Kola Gold?", "'Kola Gold' read as Bought = KG"),
        (
            "fevers",
            "What was the average number of cases per day in June?",
            "averaged over the days the data holds",
        ),
        # a name two colleges share, beside the id that tells them apart: said
        (
            "alumni",
            "How many different colleges are in the data?",
            "counted the distinct values of inst_name (a name two rows' things may share",
        ),
        # the professors, not the courses, each once
        (
            "lecturers",
            "What is the average score of the professors?",
            "each professor counted once (prof_id)",
        ),
        # "typical" read as the average, and said (the median is another reading)
        (
            "payroll",
            "What's the typical salary of a full professor?",
            "'typical' read as the average",
        ),
        ("race", "What was the fastest time?", "'fastest' read as the lowest time"),
        ("race", "Which state had the fastest average net time?", "read as the lowest net"),
        # "across countries", bare: one figure over them all, said
        (
            "lifespans",
            "What was the average life expectancy across countries in 2020?",
            "'across countries' read as one figure over all of them",
        ),
        # no dates to group by: "annual" picks the yearly figures, said
        (
            "paysheet",
            "What's the median annual salary of a Software Engineer?",
            "'annual' read as salary_type = year",
        ),
        # "across all series" over the number `series`: one figure over them all, said
        (
            "broadcast",
            "What was the total number of episodes across all series?",
            "'across all series' read as one figure over all of them",
        ),
        # "the average monthly pce": one figure or each month's? Each month's, said
        ("fred", "What is the average monthly pce in 1991?", "'average monthly' read as a row"),
    ],
)
def test_a_reading_the_data_cannot_confirm_is_said_and_reviewed(
    harbour, db: str, question: str, said: str
) -> None:
    session, _ = harbour[db]
    run = session.ask(question)
    assert said in run.answer
    assert run.trust_state is TrustState.REVIEW_REQUIRED


@pytest.mark.parametrize(
    ("db", "question"),
    [
        # a percentage per row: the row's own figure, or its part of the column's total?
        ("jobs", "What percentage of nurses are women?"),
        # a category named and given no place (no "by") is asked about, never dropped
        ("arrests", "Average checks of the colour"),
        # "did not show up": a "not" the data cannot say is asked about
        ("arrests", "How many arrests did not show up?"),
        # a "by" that finds no column is asked about, never answered without its grouping
        ("fleet", "Total length by the number of vessels"),
        # a month's sales over several cities: their total? an average? asked
        ("monthly", "What were the sales in February 2023?"),
        # Ohio the county and Ohio the state, and nothing says which total is meant
        ("counties", "What is the total population of Ohio?"),
        # one named row cannot be counted for something else it relates to
        ("fleet", "How many battles did Cutty Sark fight in?"),
        # "who" answered without a name would not say who
        ("sensors", "Who is the windiest?"),
        # "the coldest month" may be an average or a low: asked, never totalled
        ("monthly", "Which city was the coldest?"),
        # "per month" over year and month columns: months in turn, or months of the year?
        ("monthly", "Total sales per month"),
        # "poverty" ends two run-together columns' names: asked which
        ("crime", "Average poverty by state"),
        # "the warmest reading" asks which one, not only the highest temperature
        ("sensors", "What was the warmest day?"),
        # "rate" after a count column: a ratio of two columns nothing says, never the count
        ("survey", "Which college has the lowest acceptance rate?"),
        # a guessed part of a name is never grouped by: "state" is not a column of states
        ("survey", "Average Apps by state"),
        # "the smallest poll" is one poll's size, which nothing names: not the fewest polls
        ("survey", "Which pollster ran the smallest poll?"),
        # "a bank" is a kind of company, never the one company named Bank
        ("rankings", "What are the average sales of a bank?"),
        # "ranking" is rank and an ending, never a name cut short ("Rank Group")
        ("rankings", "What are the total sales in the ranking?"),
        # each college is one row: a count ranks nothing, so what makes one best is asked
        ("survey", "Which college has the best football team?"),
        # a noun said of the rows ("are pitchers") is a condition no column holds
        ("survey", "How many of the colleges are universities?"),
        # Norway is no country in the data: a yes/no column's `no` is never its code
        ("travel", "How many stays came from Norway?"),
        # "when" on a table that keeps no time: a figure alone would not say when
        ("tv", "When were the viewers highest?"),
        # years kept in names (1970, 2018): another year is asked about, never read as one
        ("demographics", "What was the average life expectancy in 2010?"),
        # "which ships …" asks for names: a count of the rows answers another question
        ("fleet", "Which ships were wrecked?"),
        # one row named by its label cannot be counted for something else ("people")
        ("jobs", "How many people work as carpenters?"),
        # no price anywhere: "cheapest" ranks nothing, and `process` is not "processor"
        ("chips", "What is the cheapest processor?"),
        # "passengers rescued": a verb that picks some rows, with no column for it, is asked
        ("fleet", "How many ships were rescued?"),
        # what the counted rows did, last ("left"), is a condition nothing holds: asked
        ("staff", "How many employees who work overtime left?"),
        # a rate per person needs the people: no population column, asked
        ("fleet", "Which port has the most wrecks per 100,000 people?"),
        # a season on a table with dates: when it ran is not the calendar year, asked
        ("polls", "How many polls were there in the 2015/16 season?"),
        # "on display": a state of the rows that nothing holds, never dropped as "display"
        ("artworks", "How many of these works are currently on display?"),
        # a word nothing names, read as the rows, cannot be the groups their count is taken in
        # "female" picks some of the dogs, and nothing holds it: asked, never dropped
        ("pets", "What is the most popular name for female dogs?"),
        # "the most precipitation" over a text column: never a count of rows
        ("who", "Which month had the most precipitation in Mumbai?"),
        # the figure a table is named by, said in the singular with no aggregate: asked,
        # never a count of the rows
        ("payroll", "What is the salary of men and women?"),
        # a unit other than the one a column says it is kept in: never converted
        ("laps", "What was the average lap time in minutes?"),
        ("strikes", "Which airport had the most bird strikes?"),
        # "how much" asks an amount: a count of rows is none ('Pay' begins no title here)
        ("artworks", "How much did the gallery pay for its Damien Hirst works?"),
        # a superlative naming its own column ("heaviest": the weight) never ranks by another
        ("fleet", "What is the heaviest ship's length?"),
        ("fleet", "What is the length of the heaviest ship?"),
        # a difference with no two values to take it between
        ("paybook", "What is the salary gap?"),
        # "who" with nothing that names a person: asked, never the most common salary
        ("paybook", "Who earns the most?"),
        # a year asked of a table whose year column is kept in a way not read here
        ("register", "How many patients died in 1990?"),
        # `PriceKG` beside `PriceFP`: two brands' prices (KG is no unit here), asked which
        ("sodas", "What is the average price?"),
        # two genres a row may list together: each asked about alone
        ("reviews", "Compare the average rating of comedies with that of horror films"),
        # a ranking of the one group the question's own value keeps
        ("lenders", "Which loan officer has the most loans?"),
        # "four-year" is no year 4
        ("alumni", "What were the lowest median earnings of any four-year school in 2014?"),
        # which figure is compared is not said: asked, never a count of salaries
        ("payroll", "Are salaries higher for men or women?"),
        # "no" before a yes/no column is its value, never "none recorded"; nor all the rows
        ("licences", "How many pets have no pet insurance?"),
        # whose films, or which term: what the data lacks is asked, never read as the rows
        ("reviews", "Which director's films get the best ratings?"),
        ("lecturers", "Which semester had the highest scores?"),
        # a quality of the groups, not how many rows each has: all deaths or per crash?
        ("planecrash", "Which cause of crashes is the deadliest?"),
        # a count of rows with nothing to count them in
        ("ratings", "How many ratings have at least 3 stars?"),
        # "the best" of rows with nothing to say what best is
        ("stops", "Which neighborhood has the best stops?"),
    ],
)
def test_shapes_that_stay_open_are_asked(harbour, db: str, question: str) -> None:
    session, _ = harbour[db]
    run = session.ask(question)
    assert run.trust_state not in (TrustState.GROUNDED, TrustState.CERTIFIED), run.answer
    assert run.result is None or not run.result.get("rows"), run.sql


@pytest.mark.parametrize(
    ("question", "said"),
    [
        # three pollsters ran one poll each: LIMIT 1 shows the first by name, every run (the
        # names break the tie), and the sentence names the others
        (
            "Which pollster ran the fewest polls?",
            "ICM has the lowest poll count: 1 (tied with ORB and Opinium).",
        ),
        # a top 2 whose second place is shared
        (
            "Which 2 pollsters had the smallest average sample size?",
            "Opinium ties with the last shown",
        ),
    ],
)
def test_rows_tied_at_a_rankings_cut_are_named(harbour, question: str, said: str) -> None:
    session, _ = harbour["survey"]
    run = session.ask(question)
    assert said in run.answer
    assert run.trust_state is TrustState.GROUNDED


def test_a_ranking_without_ties_says_none(harbour) -> None:
    session, _ = harbour["survey"]
    run = session.ask("Which pollster ran the most polls?")
    assert rows(run) == [("YouGov", 2)]
    assert "tie" not in run.answer


def test_a_year_is_said_as_written(harbour) -> None:
    session, _ = harbour["outbreaks"]
    assert "is 1960" in session.ask("What is the first year with polio data?").answer


def test_a_year_no_column_can_check_is_said_and_reviewed(harbour) -> None:
    """A table of one season's figures with no date or year anywhere: "in 1986" cannot be
    checked, so every row is read, the reading is said, and the answer is only reviewed."""
    session, path = harbour["ballpark"]
    run = session.ask("What is the most errors any player made in 1986?")
    assert rows(run) == truth(path, "SELECT MAX(Errors) FROM Batters"), run.sql
    assert run.trust_state is TrustState.REVIEW_REQUIRED
    assert "'1986' not applied: Batters has no date or year" in run.trust_reason


def test_a_name_kept_for_several_years_reads_the_latest_and_says_so(harbour) -> None:
    session, path = harbour["demographics"]
    run = session.ask("What is the average life expectancy?")
    assert rows(run) == truth(path, "SELECT ROUND(AVG(life_expectancy_2018), 2) FROM sowc")
    assert run.trust_state is TrustState.REVIEW_REQUIRED
    assert "life_expectancy_2018 (the latest; also life_expectancy_1970)" in run.trust_reason


def test_a_flag_in_a_table_sampled_later_is_still_yes_no(tmp_path: Path, monkeypatch) -> None:
    """A wide database is profiled where questions lead: a 0/1 column of a table sampled only
    then is read as a yes/no flag too ("the callback rate" its share of 1s)."""
    from zlens_jupyter.warehouse.warehouse import LAZY_SAMPLE_TABLES

    monkeypatch.setenv("ZLENS_CACHE_DIR", str(tmp_path / "cache"))
    path = tmp_path / "wide.duckdb"
    con = duckdb.connect(str(path))
    for i in range(LAZY_SAMPLE_TABLES + 5):
        con.execute(f"CREATE TABLE t{i} AS SELECT range AS id, range % 3 AS k FROM range(20)")
    con.execute(
        "CREATE TABLE resumes AS SELECT range AS id, CASE WHEN range % 4 = 0 THEN 1 ELSE 0 END "
        "AS received_callback, CASE WHEN range % 2 = 0 THEN 'Boston' ELSE 'Chicago' END AS city "
        "FROM range(100)"
    )
    con.close()
    session = Session(path, tmp_path / "project")
    try:
        run = session.ask("What was the callback rate of resumes in Boston?")
        sql = "SELECT ROUND(100.0 * AVG(received_callback), 2) FROM resumes WHERE city = 'Boston'"
        assert rows(run) == truth(path, sql), run.sql
    finally:
        session.close()


def test_a_month_ranked_first_does_not_tie_with_itself(harbour) -> None:
    """The ties probe reads dates; the result holds them as text: the month shown was once
    reported as tied with itself ("26 (tied with 2007-06-01)")."""
    session, path = harbour["murders"]
    run = session.ask("Which single month saw the most murders?")
    assert rows(run) == truth(
        path,
        "SELECT CAST(DATE_TRUNC('month', date) AS DATE)::VARCHAR, COUNT(*) FROM london_murders "
        "GROUP BY 1 ORDER BY 2 DESC LIMIT 1",
    )
    assert "tied" not in (run.answer or ""), run.answer
    assert run.trust_state == TrustState.GROUNDED, run.trust_reason


def test_harbour_fixture_names_are_unique() -> None:
    # The fixtures are one dict literal: a repeated name silently replaces the earlier
    # fixture, and the tests written for it then run on another table.
    import ast
    from collections import Counter

    tree = ast.parse(Path(__file__).read_text())
    fixture = next(
        n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == "harbour"
    )
    tables = next(
        n.value
        for n in ast.walk(fixture)
        if isinstance(n, ast.Assign) and getattr(n.targets[0], "id", "") == "tables"
    )
    assert isinstance(tables, ast.Dict)
    names = Counter(k.value for k in tables.keys if isinstance(k, ast.Constant))
    assert len(names) > 100
    assert [name for name, n in names.items() if n > 1] == []


def test_a_capitalised_pair_that_is_no_name_is_asked_about(harbour) -> None:
    # "S&P 500" reads as three words ("s and p"): never a first and a family name, and never
    # an executor error labelled blocked
    session, _ = harbour["batting"]
    run = session.ask("What was the S&P 500 close in 2015?")
    assert run.clarification, (run.trust_state, run.trust_reason)


def test_a_group_with_no_value_is_said_without_lowering_the_label(harbour) -> None:
    """A NULL group of a breakdown is plainly no team: shown, said, the label kept; a
    placeholder ('*') might be a code someone meant, so that one is reviewed (above)."""
    session, _ = harbour["kits"]
    run = session.ask("What are the total goals for each team?")
    assert run.result is not None
    assert sorted(map(tuple, run.result["rows"]), key=str) == [
        ("Blues", 4),
        ("Reds", 5),
        (None, 1),
    ]
    assert "rows with no team recorded (none)" in run.answer
    assert run.trust_state is TrustState.GROUNDED
