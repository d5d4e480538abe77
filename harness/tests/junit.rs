//! JUnit XML of `jtg check` and `jtg corpus`, validated against the JUnit schema CI servers
//! read (`tests/data/junit-10.xsd`, the Jenkins xUnit plugin's / Ant's structure).
//!
//! The validation reads the XSD itself (with roxmltree) and checks a report against what it
//! declares: the root is a declared element; every element's attributes are declared and the
//! required ones present; its children follow its `xs:sequence` (order, minOccurs,
//! maxOccurs); text only where the type is mixed or simple. That is all the subset of XML
//! Schema `junit-10.xsd` uses (no `xmllint` needed). On top, the counts are checked against
//! the test cases (`tests`, `failures`, `errors`, `skipped`) and `time` parses as seconds.

mod common;
use common::{broken_contains_graph, fixtures, jtg};

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

const XS: &str = "http://www.w3.org/2001/XMLSchema";

/// One element declaration of the schema.
#[derive(Debug, Default)]
struct Decl {
    /// `type="xs:string"` or `mixed="true"`: text allowed.
    text: bool,
    /// Child elements in sequence: (name, minOccurs, maxOccurs; `None` = unbounded).
    sequence: Vec<(String, usize, Option<usize>)>,
    /// Attributes: name → required.
    attributes: BTreeMap<String, bool>,
}

fn schema() -> BTreeMap<String, Decl> {
    let path = jtg_testkit::repo_dir().join("harness/tests/data/junit-10.xsd");
    let text = std::fs::read_to_string(&path).expect("junit-10.xsd");
    let doc = roxmltree::Document::parse(&text).expect("the XSD parses");
    let is = |n: &roxmltree::Node, name: &str| {
        n.is_element() && n.tag_name().namespace() == Some(XS) && n.tag_name().name() == name
    };
    let mut decls = BTreeMap::new();
    for el in doc.root_element().children().filter(|n| is(n, "element")) {
        let name = el
            .attribute("name")
            .expect("a top-level element has a name");
        let mut d = Decl {
            text: el.attribute("type") == Some("xs:string"),
            ..Decl::default()
        };
        for ct in el.children().filter(|n| is(n, "complexType")) {
            d.text |= ct.attribute("mixed") == Some("true");
            for item in ct.children().filter(|n| n.is_element()) {
                if is(&item, "attribute") {
                    d.attributes.insert(
                        item.attribute("name").expect("attribute name").to_string(),
                        item.attribute("use") == Some("required"),
                    );
                } else if is(&item, "sequence") {
                    for r in item.children().filter(|n| is(n, "element")) {
                        let min = r.attribute("minOccurs").map_or(1, |v| v.parse().unwrap());
                        let max = match r.attribute("maxOccurs") {
                            Some("unbounded") => None,
                            Some(v) => Some(v.parse().unwrap()),
                            None => Some(1),
                        };
                        d.sequence
                            .push((r.attribute("ref").expect("ref").to_string(), min, max));
                    }
                } else {
                    panic!("the validator does not know xs:{}", item.tag_name().name());
                }
            }
        }
        decls.insert(name.to_string(), d);
    }
    assert!(decls.len() >= 10, "the schema declares the JUnit elements");
    decls
}

/// Validates `xml` against the schema; the error says where it fails.
fn validate(xml: &str) -> Result<(), String> {
    let schema = schema();
    let doc = roxmltree::Document::parse(xml).map_err(|e| format!("not XML: {e}"))?;
    fn element(n: roxmltree::Node, schema: &BTreeMap<String, Decl>) -> Result<(), String> {
        let name = n.tag_name().name();
        let d = schema
            .get(name)
            .ok_or_else(|| format!("<{name}> is not declared"))?;
        for a in n.attributes() {
            if !d.attributes.contains_key(a.name()) {
                return Err(format!(
                    "<{name}> has an undeclared attribute `{}`",
                    a.name()
                ));
            }
        }
        for (a, required) in &d.attributes {
            if *required && n.attribute(a.as_str()).is_none() {
                return Err(format!("<{name}> lacks the required attribute `{a}`"));
            }
        }
        if !d.text
            && n.children()
                .any(|c| c.is_text() && !c.text().unwrap_or("").trim().is_empty())
        {
            return Err(format!("<{name}> holds text"));
        }
        let children: Vec<roxmltree::Node> = n.children().filter(|c| c.is_element()).collect();
        let mut k = 0;
        for (child, min, max) in &d.sequence {
            let mut count = 0;
            while k < children.len()
                && children[k].tag_name().name() == child
                && max.is_none_or(|m| count < m)
            {
                element(children[k], schema)?;
                count += 1;
                k += 1;
            }
            if count < *min {
                return Err(format!("<{name}> needs at least {min} <{child}>"));
            }
        }
        if let Some(extra) = children.get(k) {
            return Err(format!(
                "<{name}>: <{}> is out of place",
                extra.tag_name().name()
            ));
        }
        Ok(())
    }
    element(doc.root_element(), &schema)?;
    // beyond the schema: the counts are those of the test cases, times are seconds
    for suite in doc.descendants().filter(|n| n.has_tag_name("testsuite")) {
        let cases: Vec<_> = suite
            .children()
            .filter(|c| c.has_tag_name("testcase"))
            .collect();
        let with = |tag: &str| {
            cases
                .iter()
                .filter(|c| c.children().any(|x| x.has_tag_name(tag)))
                .count()
        };
        for (attr, n) in [
            ("tests", cases.len()),
            ("failures", with("failure")),
            ("errors", with("error")),
            ("skipped", with("skipped")),
        ] {
            if let Some(v) = suite.attribute(attr) {
                if v.parse::<usize>() != Ok(n) {
                    return Err(format!("testsuite {attr}=\"{v}\", but {n} test cases"));
                }
            }
        }
    }
    for n in doc.descendants().filter(|n| n.attribute("time").is_some()) {
        let t = n.attribute("time").unwrap_or("");
        if !t.parse::<f64>().is_ok_and(|t| t >= 0.0) {
            return Err(format!("time=\"{t}\" is not seconds"));
        }
    }
    Ok(())
}

fn attr(xml: &str, element: &str, name: &str) -> Option<String> {
    let doc = roxmltree::Document::parse(xml).ok()?;
    let n = doc.descendants().find(|n| n.has_tag_name(element))?;
    n.attribute(name).map(str::to_string)
}

#[test]
fn the_validator_refuses_what_the_schema_does_not_allow() {
    let ok = "<testsuite name=\"s\" tests=\"1\" failures=\"1\"><testcase name=\"a\"><failure message=\"m\">t</failure></testcase></testsuite>";
    assert_eq!(validate(ok), Ok(()));
    for (bad, why) in [
        ("<testsuite tests=\"0\"/>", "lacks the required attribute `name`"),
        ("<testsuite name=\"s\" tests=\"1\"><testcase/></testsuite>", "lacks the required attribute `name`"),
        ("<testsuite name=\"s\" tests=\"0\" run=\"1\"/>", "undeclared attribute `run`"),
        ("<testsuite name=\"s\" tests=\"1\"><testcase name=\"a\"><failure/><skipped/></testcase></testsuite>", "out of place"),
        ("<testsuite name=\"s\" tests=\"1\"><testcase name=\"a\">text</testcase></testsuite>", "holds text"),
        ("<testsuite name=\"s\" tests=\"2\"><testcase name=\"a\"/></testsuite>", "tests=\"2\""),
        ("<testsuite name=\"s\" tests=\"1\" failures=\"0\"><testcase name=\"a\"><failure/></testcase></testsuite>", "failures=\"0\""),
        ("<testsuite name=\"s\" tests=\"1\"><testcase name=\"a\" time=\"soon\"/></testsuite>", "not seconds"),
        ("<report/>", "not declared"),
    ] {
        let e = validate(bad).expect_err(bad);
        assert!(e.contains(why), "{bad}: {e}");
    }
}

#[test]
fn check_junit_is_valid_with_one_stable_test_case_per_method() {
    let fx = fixtures();
    let fx = fx.to_str().unwrap();
    let (code, xml, err) = jtg(&[
        "check",
        fx,
        "List.contains",
        "-n",
        "40",
        "--format",
        "junit",
    ]);
    assert_eq!(code, 0, "{err}");
    validate(&xml).unwrap_or_else(|e| panic!("{e}\n{xml}"));
    assert_eq!(attr(&xml, "testsuite", "tests").as_deref(), Some("1"));
    assert_eq!(attr(&xml, "testsuite", "failures").as_deref(), Some("0"));
    let name = attr(&xml, "testcase", "name").unwrap();
    assert_eq!(name, "List.contains(LList;I)Z");
    assert!(attr(&xml, "testcase", "time").is_some(), "{xml}");
    // the same name whatever -n and --seed; no times with --no-times
    let (_, xml2, _) = jtg(&[
        "check",
        fx,
        "List.contains",
        "-n",
        "7",
        "--seed",
        "3",
        "--format",
        "junit",
        "--no-times",
    ]);
    validate(&xml2).unwrap_or_else(|e| panic!("{e}\n{xml2}"));
    assert_eq!(attr(&xml2, "testcase", "name").unwrap(), name);
    assert!(!xml2.contains("time="), "{xml2}");
}

#[test]
fn check_junit_counts_a_failing_method_once() {
    let fx = fixtures();
    let fx = fx.to_str().unwrap();
    let p = broken_contains_graph(
        Path::new(fx),
        std::env::temp_dir().join(format!("jtg-junit-{}-broken.json", std::process::id())),
    );
    let (code, xml, err) = jtg(&[
        "check",
        fx,
        "List.contains",
        "--graph",
        p.to_str().unwrap(),
        "-n",
        "60",
        "--shrink-runs",
        "4",
        "--format",
        "junit",
    ]);
    assert_eq!(code, 1, "{err}");
    validate(&xml).unwrap_or_else(|e| panic!("{e}\n{xml}"));
    assert_eq!(attr(&xml, "testsuite", "tests").as_deref(), Some("1"));
    assert_eq!(attr(&xml, "testsuite", "failures").as_deref(), Some("1"));
    let message = attr(&xml, "failure", "message").unwrap();
    assert!(
        message.ends_with("of 60 traces violate the graph"),
        "{message}"
    );
    assert!(xml.contains("VIOLATION"), "{xml}");
}

/// Violations that fail alike (shrunk to the same input, stuck at the same step with the same
/// reasons) are printed once, with the cases that share the failure; the JSON keeps every
/// report.
#[test]
fn identical_violations_are_printed_once_with_their_cases() {
    let fx = fixtures();
    let fx = fx.to_str().unwrap();
    let p = broken_contains_graph(
        Path::new(fx),
        std::env::temp_dir().join(format!("jtg-junit-{}-broken.json", std::process::id())),
    );
    let args = [
        "check",
        fx,
        "List.contains",
        "--graph",
        p.to_str().unwrap(),
        "-n",
        "200",
        "--seed",
        "3",
        "--shrink-runs",
        "50",
    ];
    let (code, json, err) = jtg(&[&args[..], &["--format", "json"]].concat());
    assert_eq!(code, 1, "{err}");
    let j: serde_json::Value = serde_json::from_str(&json).unwrap();
    let failures = j["failures"].as_array().unwrap();
    assert_eq!(failures.len(), 5, "--max-reports 5");
    // the failure of a report: that of its shrunk input when it was shrunk
    let groups: std::collections::BTreeSet<String> = failures
        .iter()
        .map(|f| {
            let r = if f["shrunk"].is_null() {
                f
            } else {
                &f["shrunk"]
            };
            format!(
                "{}|{}|{}|{}",
                r["input"], r["step"], r["state"], r["candidates"]
            )
        })
        .collect();
    assert!(
        groups.len() < 5,
        "the broken graph fails alike on many inputs"
    );
    let (code, text, _) = jtg(&args);
    assert_eq!(code, 1);
    let printed = text.matches("VIOLATION (").count();
    assert_eq!(printed, groups.len(), "one report per failure:\n{text}");
    let more: usize = text
        .lines()
        .filter_map(|l| l.trim().strip_prefix("the same failure in "))
        .map(|l| l.split(' ').next().unwrap().parse::<usize>().unwrap())
        .sum();
    assert_eq!(
        printed + more,
        5,
        "every report is printed or counted:\n{text}"
    );
}

#[test]
fn corpus_junit_is_valid_with_one_test_case_per_jar() {
    let root = std::env::var_os("JTG_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| jtg_testkit::repo_dir().join("../shared/corpus"));
    if !root.is_dir() {
        eprintln!("corpus JUnit test skipped: no corpus at {}", root.display());
        return;
    }
    let dir = root.join("tpdb/Aprove_09");
    let jars: Vec<String> = ["Collatz", "GCD5", "LogMult", "PastaA1"]
        .iter()
        .map(|n| dir.join(format!("{n}.jar")).to_string_lossy().into_owned())
        .collect();
    let mut args: Vec<&str> = vec!["corpus"];
    args.extend(jars.iter().map(String::as_str));
    args.extend([
        "--check",
        "3",
        "--max-steps",
        "20000",
        "--quiet",
        "--format",
        "junit",
    ]);
    let (code, xml, err) = jtg(&args);
    assert!(code == 0 || code == 1, "{err}");
    validate(&xml).unwrap_or_else(|e| panic!("{e}\n{xml}"));
    assert_eq!(attr(&xml, "testsuite", "tests").as_deref(), Some("4"));
    let doc = roxmltree::Document::parse(&xml).unwrap();
    let names: Vec<&str> = doc
        .descendants()
        .filter(|n| n.has_tag_name("testcase"))
        .filter_map(|n| n.attribute("name"))
        .collect();
    assert_eq!(names.len(), 4);
    assert!(
        names
            .iter()
            .all(|n| n.ends_with(".jar") && !n.contains("/tmp")),
        "{names:?}"
    );
    let failures = attr(&xml, "testsuite", "failures")
        .unwrap()
        .parse::<usize>()
        .unwrap();
    assert_eq!(failures > 0, code == 1, "{xml}");
}
