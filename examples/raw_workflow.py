"""Raw diabetes data in its own units -> public bounds -> one private release -> mean and PCA."""
import sys
import numpy as np
import dpcov
X = np.genfromtxt(f"{sys.argv[1]}/diabetes.csv", delimiter=",", skip_header=1)    # raw units
b = np.genfromtxt(f"{sys.argv[1]}/diabetes_bounds.csv", delimiter=",", names=True)  # public
with dpcov.BudgetAccountant(epsilon=2.0, delta=1e-5) as budget:                    # the cap
    pca = dpcov.PrivatePCA(n_components=2, bounds=(b["min"], b["max"]), epsilon=1.0).fit(X)
print("mean:", pca.mean_.round(1), "\nPC1:", pca.components_[0].round(3))
print("spent:", budget.spent.epsilon, "of", budget.spent.epsilon_cap)
