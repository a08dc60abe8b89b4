"""Tests of the Open Bandit Dataset's sample in rankedu/datasets.py: the shipped columns are the
sdist's, value for value, the counts are the dataset's, and the shipped prior is obp's."""

import numpy as np
import pandas as pd
import pytest
import yaml

from obp_oracle import sdist
from rankedu import datasets

CAMPAIGNS = {"all": 80, "men": 34, "women": 46}
# Clicks in each log of 10,000 impressions, as counted in the sdist's CSVs.
CLICKS = {("random", "all"): 38, ("random", "men"): 46, ("random", "women"): 46,
          ("bts", "all"): 42, ("bts", "men"): 69, ("bts", "women"): 46}


@pytest.mark.parametrize("policy, campaign", CLICKS)
def test_each_log_is_the_sdists_columns_value_for_value(policy, campaign):
    log = datasets.open_bandit(policy, campaign)
    source = sdist() / "obp" / "dataset" / "obd" / policy / campaign / f"{campaign}.csv"
    original = pd.read_csv(source, index_col=0).reset_index(drop=True)
    assert log.columns.tolist() == ["timestamp", "item_id", "position", "click",
                                    "propensity_score"]
    pd.testing.assert_frame_equal(log, original[log.columns], check_exact=True)
    assert len(log) == 10_000 and int(log["click"].sum()) == CLICKS[policy, campaign]
    assert log["item_id"].nunique() == CAMPAIGNS[campaign]
    assert sorted(log["position"].unique()) == [1, 2, 3]


def test_the_random_policys_propensity_is_one_over_the_items():
    for campaign, items in CAMPAIGNS.items():
        scores = datasets.open_bandit("random", campaign)["propensity_score"].to_numpy()
        assert np.allclose(scores, 1 / items, rtol=1e-12, atol=0)


def test_the_prior_is_obps_prior_bts_yaml():
    with open(sdist() / "obp" / "policy" / "conf" / "prior_bts.yaml") as file:
        prior = yaml.safe_load(file)
    for campaign, items in CAMPAIGNS.items():
        shipped = datasets.open_bandit_prior(campaign)
        assert shipped["item_id"].tolist() == list(range(items))
        assert np.array_equal(shipped["alpha"], prior[campaign]["alpha"])
        assert np.array_equal(shipped["beta"], prior[campaign]["beta"])


def test_the_licence_and_readme_ship_beside_the_data():
    assert "Apache License" in (datasets.OPEN_BANDIT / "LICENSE").read_text()
    assert "arXiv:2008.07146" in (datasets.OPEN_BANDIT / "README.md").read_text()


def test_unknown_policy_or_campaign_is_refused_naming_it():
    with pytest.raises(ValueError, match="^policy must be one of 'random', 'bts'"):
        datasets.open_bandit("greedy")
    with pytest.raises(ValueError, match="^campaign must be one of 'all', 'men', 'women'"):
        datasets.open_bandit("random", "kids")
    with pytest.raises(ValueError, match="^campaign must be one of"):
        datasets.open_bandit_prior("kids")
