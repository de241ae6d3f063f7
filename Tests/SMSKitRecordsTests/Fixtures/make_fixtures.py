#!/usr/bin/env python3
"""Writes the contact-export fixtures of Tests/SMSKitRecordsTests/Fixtures (deterministic).

Shapes follow the real exports: Google Contacts (Google CSV, " ::: " between values of one cell),
Outlook (Outlook CSV), Excel "CSV (semicolon)" as saved in Europe (UTF-8 BOM, CRLF), Excel
"Unicode Text" (UTF-16LE with BOM, tabs, CRLF). Every phone number is fictional: Ofcom's drama
ranges (+44 7700 900xxx, +44 20 7946 0xxx), NANP 555-01xx, and the German/French/Spanish
numbers are made-up examples. Run: python3 make_fixtures.py (in this directory).
"""
import os

HERE = os.path.dirname(os.path.abspath(__file__))

GOOGLE_HEADER = ("Name,Given Name,Additional Name,Family Name,Yomi Name,Given Name Yomi,Additional Name Yomi,"
                 "Family Name Yomi,Name Prefix,Name Suffix,Initials,Nickname,Short Name,Maiden Name,Birthday,Gender,"
                 "Location,Billing Information,Directory Server,Mileage,Occupation,Hobby,Sensitivity,Priority,Subject,"
                 "Notes,Language,Photo,Group Membership,E-mail 1 - Type,E-mail 1 - Value,Phone 1 - Type,"
                 "Phone 1 - Value,Phone 2 - Type,Phone 2 - Value,Address 1 - Type,Address 1 - Formatted,"
                 "Address 1 - Street,Address 1 - City,Address 1 - PO Box,Address 1 - Region,Address 1 - Postal Code,"
                 "Address 1 - Country,Address 1 - Extended Address")


def google_row(name, given, family, email, phone1_type, phone1, phone2_type="", phone2="", address=None, notes=""):
    cells = [name, given, "", family] + [""] * 21 + [notes, "", "", "* myContacts ::: Friends", "* Home", email,
                                                     phone1_type, phone1, phone2_type, phone2]
    if address:
        formatted, street, city, postal, country = address
        cells += ["Home", formatted, street, city, "", "", postal, country, ""]
    else:
        cells += [""] * 9
    return ",".join(quote(c) for c in cells)


def quote(cell):
    if any(c in cell for c in ',"\n'):
        return '"' + cell.replace('"', '""') + '"'
    return cell


def google():
    rows = [GOOGLE_HEADER,
            google_row("Ann Example", "Ann", "Example", "ann@example.com", "Mobile", "+44 7700 900123", "Work",
                       "+44 20 7946 0000", ("1 Example Street\nLondon\nSW1A 1AA\nGB", "1 Example Street", "London",
                                            "SW1A 1AA", "United Kingdom")),
            google_row("Bob Sample", "Bob", "Sample", "bob@example.com", "Mobile ::: Home",
                       "+44 7700 900456 ::: +44 20 7946 0001"),
            google_row("Carla Test", "Carla", "Test", "carla@example.com", "Mobile", "(202) 555-0100", "", "", None,
                       'Met at "the conference", call after 5'),
            google_row("Dieter Probe", "Dieter", "Probe", "dieter@example.com", "Work", "+49 30 1234567"),
            google_row("Emma Nobody", "Emma", "Nobody", "emma@example.com", "", ""),
            ]
    return "\n".join(rows) + "\n"


OUTLOOK_HEADER = ("First Name,Middle Name,Last Name,Title,Suffix,Nickname,Given Yomi,Surname Yomi,E-mail Address,"
                  "E-mail 2 Address,E-mail 3 Address,Home Phone,Home Phone 2,Business Phone,Business Phone 2,"
                  "Mobile Phone,Car Phone,Other Phone,Primary Phone,Pager,Business Fax,Home Fax,Other Fax,"
                  "Company Main Phone,Callback,Radio Phone,Telex,TTY/TDD Phone,IMAddress,Job Title,Department,Company,"
                  "Office Location,Manager's Name,Assistant's Name,Assistant's Phone,Company Yomi,Business Street,"
                  "Business City,Business State,Business Postal Code,Business Country/Region,Home Street,Home City,"
                  "Home State,Home Postal Code,Home Country/Region,Other Street,Other City,Other State,"
                  "Other Postal Code,Other Country/Region,Personal Web Page,Spouse,Schools,Hobby,Location,Web Page,"
                  "Birthday,Anniversary,Notes")


def outlook():
    columns = OUTLOOK_HEADER.split(",")

    def row(**values):
        return ",".join(quote(values.get(column, "")) for column in columns)

    rows = [OUTLOOK_HEADER,
            row(**{"First Name": "Ann", "Last Name": "Example", "E-mail Address": "ann@example.com",
                   "Home Phone": "+44 20 7946 0002", "Mobile Phone": "+44 7700 900789",
                   "Business Country/Region": "United Kingdom"}),
            row(**{"First Name": "Frank", "Last Name": "Muster", "Mobile Phone": "+49 1512 3456789",
                   "Business Phone": "+49 30 1234567", "Home Country/Region": "Deutschland"}),
            row(**{"First Name": "Gina", "Last Name": "Ejemplo", "Mobile Phone": "+34 612 34 56 78",
                   "Notes": "Prefers SMS,\nnot calls"}),
            ]
    return "\r\n".join(rows) + "\r\n"


def excel_semicolon():
    rows = ["Name;Vorname;Telefon;Handy;Land",
            "Muster;Max;030 1234567;0151 23456789;Deutschland",
            "Beispiel;Erika;+49 30 7654321;4,47911E+11;Deutschland",
            "Exemple;Jean;01 23 45 67 89;'+33 6 12 34 56 78;France",
            "Ejemplo;Lucía;;+34 612 34 56 78;España",
            "Probe;Anna;\"+43 1 234567\";+43 664 1234567;Österreich"]
    return "\ufeff" + "\r\n".join(rows) + "\r\n"


def excel_unicode_text():
    rows = ["Name\tMobile Phone\tCountry",
            "Zoë Example\t+44 7700 900321\tUnited Kingdom",
            "Иван Пример\t+7 912 345-67-89\tРоссия",
            "王小明\t+86 138 0013 8000\t中国",
            "\"Multi\tline\nname\"\t+1 202 555 0101\tUSA"]
    return "\r\n".join(rows) + "\r\n"


def no_header():
    return "\n".join(["1,+44 7700 900111,GB", "2,+44 7700 900222,GB", "3,07700 900333,GB", "4,not a number,GB"]) + "\n"


def write(name, text, encoding="utf-8"):
    with open(os.path.join(HERE, name), "wb") as out:
        if encoding == "utf-16-le":
            out.write(b"\xff\xfe" + text.encode("utf-16-le"))
        else:
            out.write(text.encode(encoding))


write("google-contacts.csv", google())
write("outlook.csv", outlook())
write("excel-semicolon.csv", excel_semicolon())
write("excel-unicode-text.txt", excel_unicode_text(), "utf-16-le")
write("no-header.csv", no_header())
write("excel-unicode-text-no-bom.txt", excel_unicode_text().encode("utf-16-le").decode("latin-1"), "latin-1")
write("latin1.csv", "Name;Téléphone;Pays\nJosé Müller;+49 30 1234567;Deutschland\nFrançois Gâteau;+33 1 23 45 67 89;France\nAndré;+34 612 34 56 78;España\n", "latin-1")
