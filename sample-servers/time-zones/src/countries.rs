//! Which zones a country uses, for searches by country ("Brazil", "DE").
//!
//! chrono-tz compiles in the zones but not the database's country table (zone.tab), so this is a hand-kept list of
//! the most asked-for countries and territories, each with its ISO 3166 code and the canonical zones people there
//! live in (the main ones for the largest countries). A country that is missing is still found by its cities,
//! since zone names are "Region/City". The tests check that every zone named here exists.

/// A country: its ISO 3166-1 alpha-2 code, its names (the first is shown; the others are searched too) and zones.
#[derive(Debug)]
pub(crate) struct Country {
    pub(crate) code: &'static str,
    pub(crate) names: &'static [&'static str],
    pub(crate) zones: &'static [&'static str],
}

impl Country {
    /// The name shown to people.
    pub(crate) fn name(&self) -> &'static str {
        self.names.first().copied().unwrap_or(self.code)
    }

    /// Whether the query names this country: its code exactly, or a part of one of its names (queries are
    /// lowercase; a code needs two letters, so "in" is India, not every name containing "in").
    pub(crate) fn matches(&self, query: &str) -> bool {
        if query.len() == 2 {
            return self.code.eq_ignore_ascii_case(query);
        }
        self.names.iter().any(|name| name.to_lowercase().contains(query))
    }
}

const fn country(code: &'static str, names: &'static [&'static str], zones: &'static [&'static str]) -> Country {
    Country { code, names, zones }
}

/// The countries, by name.
pub(crate) static COUNTRIES: &[Country] = &[
    country("AF", &["Afghanistan"], &["Asia/Kabul"]),
    country("AL", &["Albania"], &["Europe/Tirane"]),
    country("DZ", &["Algeria"], &["Africa/Algiers"]),
    country(
        "AR",
        &["Argentina"],
        &["America/Argentina/Buenos_Aires", "America/Argentina/Cordoba", "America/Argentina/Mendoza"],
    ),
    country("AM", &["Armenia"], &["Asia/Yerevan"]),
    country(
        "AU",
        &["Australia"],
        &[
            "Australia/Sydney",
            "Australia/Melbourne",
            "Australia/Brisbane",
            "Australia/Adelaide",
            "Australia/Darwin",
            "Australia/Perth",
            "Australia/Hobart",
            "Australia/Lord_Howe",
            "Australia/Eucla",
        ],
    ),
    country("AT", &["Austria"], &["Europe/Vienna"]),
    country("AZ", &["Azerbaijan"], &["Asia/Baku"]),
    country("BD", &["Bangladesh"], &["Asia/Dhaka"]),
    country("BY", &["Belarus"], &["Europe/Minsk"]),
    country("BE", &["Belgium"], &["Europe/Brussels"]),
    country("BO", &["Bolivia"], &["America/La_Paz"]),
    country("BA", &["Bosnia and Herzegovina"], &["Europe/Sarajevo"]),
    country(
        "BR",
        &["Brazil"],
        &[
            "America/Sao_Paulo",
            "America/Bahia",
            "America/Fortaleza",
            "America/Recife",
            "America/Belem",
            "America/Manaus",
            "America/Cuiaba",
            "America/Campo_Grande",
            "America/Porto_Velho",
            "America/Boa_Vista",
            "America/Rio_Branco",
            "America/Noronha",
        ],
    ),
    country("BG", &["Bulgaria"], &["Europe/Sofia"]),
    country("KH", &["Cambodia"], &["Asia/Phnom_Penh"]),
    country(
        "CA",
        &["Canada"],
        &[
            "America/Toronto",
            "America/Vancouver",
            "America/Edmonton",
            "America/Winnipeg",
            "America/Regina",
            "America/Halifax",
            "America/St_Johns",
            "America/Moncton",
            "America/Whitehorse",
            "America/Iqaluit",
        ],
    ),
    country("CL", &["Chile"], &["America/Santiago", "America/Punta_Arenas", "Pacific/Easter"]),
    country("CN", &["China", "People's Republic of China", "PRC"], &["Asia/Shanghai", "Asia/Urumqi"]),
    country("CO", &["Colombia"], &["America/Bogota"]),
    country("CR", &["Costa Rica"], &["America/Costa_Rica"]),
    country("HR", &["Croatia"], &["Europe/Zagreb"]),
    country("CU", &["Cuba"], &["America/Havana"]),
    country("CY", &["Cyprus"], &["Asia/Nicosia", "Asia/Famagusta"]),
    country("CZ", &["Czechia", "Czech Republic"], &["Europe/Prague"]),
    country("DK", &["Denmark"], &["Europe/Copenhagen"]),
    country("DO", &["Dominican Republic"], &["America/Santo_Domingo"]),
    country("EC", &["Ecuador"], &["America/Guayaquil", "Pacific/Galapagos"]),
    country("EG", &["Egypt"], &["Africa/Cairo"]),
    country("SV", &["El Salvador"], &["America/El_Salvador"]),
    country("EE", &["Estonia"], &["Europe/Tallinn"]),
    country("ET", &["Ethiopia"], &["Africa/Addis_Ababa"]),
    country("FJ", &["Fiji"], &["Pacific/Fiji"]),
    country("FI", &["Finland"], &["Europe/Helsinki"]),
    country("FR", &["France"], &["Europe/Paris"]),
    country("GE", &["Georgia (country)"], &["Asia/Tbilisi"]),
    country("DE", &["Germany", "Deutschland"], &["Europe/Berlin"]),
    country("GH", &["Ghana"], &["Africa/Accra"]),
    country("GR", &["Greece"], &["Europe/Athens"]),
    country("GL", &["Greenland"], &["America/Nuuk", "America/Danmarkshavn", "America/Scoresbysund", "America/Thule"]),
    country("GT", &["Guatemala"], &["America/Guatemala"]),
    country("HN", &["Honduras"], &["America/Tegucigalpa"]),
    country("HK", &["Hong Kong"], &["Asia/Hong_Kong"]),
    country("HU", &["Hungary"], &["Europe/Budapest"]),
    country("IS", &["Iceland"], &["Atlantic/Reykjavik"]),
    country("IN", &["India"], &["Asia/Kolkata"]),
    country("ID", &["Indonesia"], &["Asia/Jakarta", "Asia/Pontianak", "Asia/Makassar", "Asia/Jayapura"]),
    country("IR", &["Iran"], &["Asia/Tehran"]),
    country("IQ", &["Iraq"], &["Asia/Baghdad"]),
    country("IE", &["Ireland", "Eire"], &["Europe/Dublin"]),
    country("IL", &["Israel"], &["Asia/Jerusalem"]),
    country("IT", &["Italy"], &["Europe/Rome"]),
    country("JM", &["Jamaica"], &["America/Jamaica"]),
    country("JP", &["Japan"], &["Asia/Tokyo"]),
    country("JO", &["Jordan"], &["Asia/Amman"]),
    country(
        "KZ",
        &["Kazakhstan"],
        &["Asia/Almaty", "Asia/Qostanay", "Asia/Aqtobe", "Asia/Aqtau", "Asia/Atyrau", "Asia/Oral"],
    ),
    country("KE", &["Kenya"], &["Africa/Nairobi"]),
    country("KW", &["Kuwait"], &["Asia/Kuwait"]),
    country("LV", &["Latvia"], &["Europe/Riga"]),
    country("LB", &["Lebanon"], &["Asia/Beirut"]),
    country("LT", &["Lithuania"], &["Europe/Vilnius"]),
    country("LU", &["Luxembourg"], &["Europe/Luxembourg"]),
    country("MY", &["Malaysia"], &["Asia/Kuala_Lumpur", "Asia/Kuching"]),
    country("MT", &["Malta"], &["Europe/Malta"]),
    country(
        "MX",
        &["Mexico"],
        &[
            "America/Mexico_City",
            "America/Cancun",
            "America/Merida",
            "America/Monterrey",
            "America/Chihuahua",
            "America/Ciudad_Juarez",
            "America/Mazatlan",
            "America/Hermosillo",
            "America/Tijuana",
        ],
    ),
    country("MD", &["Moldova"], &["Europe/Chisinau"]),
    country("MN", &["Mongolia"], &["Asia/Ulaanbaatar", "Asia/Hovd"]),
    country("MA", &["Morocco"], &["Africa/Casablanca"]),
    country("MM", &["Myanmar", "Burma"], &["Asia/Yangon"]),
    country("NP", &["Nepal"], &["Asia/Kathmandu"]),
    country("NL", &["Netherlands", "Holland"], &["Europe/Amsterdam"]),
    country("NZ", &["New Zealand"], &["Pacific/Auckland", "Pacific/Chatham"]),
    country("NG", &["Nigeria"], &["Africa/Lagos"]),
    country("MK", &["North Macedonia"], &["Europe/Skopje"]),
    country("NO", &["Norway"], &["Europe/Oslo"]),
    country("PK", &["Pakistan"], &["Asia/Karachi"]),
    country("PA", &["Panama"], &["America/Panama"]),
    country("PY", &["Paraguay"], &["America/Asuncion"]),
    country("PE", &["Peru"], &["America/Lima"]),
    country("PH", &["Philippines"], &["Asia/Manila"]),
    country("PL", &["Poland"], &["Europe/Warsaw"]),
    country("PT", &["Portugal"], &["Europe/Lisbon", "Atlantic/Madeira", "Atlantic/Azores"]),
    country("PR", &["Puerto Rico"], &["America/Puerto_Rico"]),
    country("QA", &["Qatar"], &["Asia/Qatar"]),
    country("RO", &["Romania"], &["Europe/Bucharest"]),
    country(
        "RU",
        &["Russia", "Russian Federation"],
        &[
            "Europe/Kaliningrad",
            "Europe/Moscow",
            "Europe/Samara",
            "Asia/Yekaterinburg",
            "Asia/Omsk",
            "Asia/Novosibirsk",
            "Asia/Krasnoyarsk",
            "Asia/Irkutsk",
            "Asia/Yakutsk",
            "Asia/Vladivostok",
            "Asia/Magadan",
            "Asia/Kamchatka",
        ],
    ),
    country("SA", &["Saudi Arabia"], &["Asia/Riyadh"]),
    country("RS", &["Serbia"], &["Europe/Belgrade"]),
    country("SG", &["Singapore"], &["Asia/Singapore"]),
    country("SK", &["Slovakia"], &["Europe/Bratislava"]),
    country("SI", &["Slovenia"], &["Europe/Ljubljana"]),
    country("ZA", &["South Africa"], &["Africa/Johannesburg"]),
    country("KR", &["South Korea", "Korea, Republic of"], &["Asia/Seoul"]),
    country("ES", &["Spain", "España"], &["Europe/Madrid", "Africa/Ceuta", "Atlantic/Canary"]),
    country("LK", &["Sri Lanka"], &["Asia/Colombo"]),
    country("SE", &["Sweden"], &["Europe/Stockholm"]),
    country("CH", &["Switzerland"], &["Europe/Zurich"]),
    country("TW", &["Taiwan"], &["Asia/Taipei"]),
    country("TZ", &["Tanzania"], &["Africa/Dar_es_Salaam"]),
    country("TH", &["Thailand"], &["Asia/Bangkok"]),
    country("TN", &["Tunisia"], &["Africa/Tunis"]),
    country("TR", &["Türkiye", "Turkey"], &["Europe/Istanbul"]),
    country("UG", &["Uganda"], &["Africa/Kampala"]),
    country("UA", &["Ukraine"], &["Europe/Kyiv", "Europe/Simferopol"]),
    country("AE", &["United Arab Emirates", "UAE", "Emirates"], &["Asia/Dubai"]),
    country(
        "GB",
        &["United Kingdom", "UK", "Great Britain", "Britain", "England", "Scotland", "Wales", "Northern Ireland"],
        &["Europe/London"],
    ),
    country(
        "US",
        &["United States", "USA", "United States of America"],
        &[
            "America/New_York",
            "America/Chicago",
            "America/Denver",
            "America/Phoenix",
            "America/Los_Angeles",
            "America/Anchorage",
            "Pacific/Honolulu",
            "America/Detroit",
            "America/Indiana/Indianapolis",
            "America/Boise",
            "America/Adak",
        ],
    ),
    country("UY", &["Uruguay"], &["America/Montevideo"]),
    country("UZ", &["Uzbekistan"], &["Asia/Tashkent", "Asia/Samarkand"]),
    country("VE", &["Venezuela"], &["America/Caracas"]),
    country("VN", &["Vietnam", "Viet Nam"], &["Asia/Ho_Chi_Minh"]),
];

/// The countries a query names.
pub(crate) fn matching(query: &str) -> impl Iterator<Item = &'static Country> + '_ {
    COUNTRIES.iter().filter(move |country| country.matches(query))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_zone_listed_exists_and_codes_are_unique() {
        for country in COUNTRIES {
            for zone in country.zones {
                assert!(zone.parse::<chrono_tz::Tz>().is_ok(), "{} lists unknown zone {zone}", country.code);
            }
        }
        let mut codes: Vec<&str> = COUNTRIES.iter().map(|c| c.code).collect();
        codes.sort_unstable();
        codes.dedup();
        assert_eq!(codes.len(), COUNTRIES.len());
    }

    #[test]
    fn countries_match_by_code_or_name_part() {
        let names = |query: &str| matching(query).map(Country::name).collect::<Vec<_>>();
        assert_eq!(names("in"), ["India"]);
        assert_eq!(names("kingdom"), ["United Kingdom"]);
        assert_eq!(names("usa"), ["United States"]);
    }
}
